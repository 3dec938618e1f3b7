import { MAX_FRAME_BYTES } from './frame-schema.ts';
import type { HelloResult, RequestBody } from './frame-schema.ts';

/**
 * Serialises a request as one line with its id as the first key, so a device whose line buffer
 * overflowed still holds the id in what it kept and can answer `failed` with it.
 */
export function encodeRequest(id: number, body: RequestBody): string {
  return `${JSON.stringify({ id, ...body })}\n`;
}

/** The longest request line (newline excluded) the host may send to a device, from its hello. */
export function requestLimit(hello: Pick<HelloResult, 'maxFrameBytes'>): number {
  return Math.min(hello.maxFrameBytes ?? MAX_FRAME_BYTES, MAX_FRAME_BYTES);
}
