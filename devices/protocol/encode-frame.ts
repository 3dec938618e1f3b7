import { MAX_FRAME_BYTES } from './frame-schema.ts';
import type { EventFrame, RequestFrame, ResponseFrame } from './frame-schema.ts';

/** Serialises a frame as one line (trailing `\n`); throws when it would exceed the frame limit. */
export function encodeFrame(frame: RequestFrame | ResponseFrame | EventFrame, maxBytes = MAX_FRAME_BYTES): string {
  const line = JSON.stringify(frame);
  const bytes = Buffer.byteLength(line, 'utf8');
  if (bytes > maxBytes) throw new RangeError(`frame of ${bytes} bytes exceeds the ${maxBytes}-byte limit`);
  return `${line}\n`;
}
