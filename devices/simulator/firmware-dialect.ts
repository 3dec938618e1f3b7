import { encodeFrame } from '../protocol/encode-frame.ts';
import { READY_EVENT } from '../protocol/frame-schema.ts';
import type { HelloResult } from '../protocol/frame-schema.ts';
import { parseRequestFrame } from '../protocol/parse-request-frame.ts';
import type { DeviceFailure } from './simulated-device-model.ts';

/** A request line as the firmware understood it. */
export type DecodedRequest =
  | { type: 'hello'; id: number }
  | { type: 'call'; id: number; tool: string; args: Record<string, unknown> }
  | { type: 'invalid'; reply?: string };

/** How a simulated device reads requests and writes answers (JSON frames, or AT-style lines). */
export interface FirmwareDialect {
  /** Reads one request line; `maxFrameBytes` is the longest line the device reads. */
  decode(line: string, maxFrameBytes: number): DecodedRequest;
  hello(id: number, hello: HelloResult): string;
  result(request: { id: number; tool: string; args: Record<string, unknown> }, result: unknown): string;
  failure(request: { id: number; tool: string }, failure: DeviceFailure): string;
  /** What the device says when it starts, if anything. */
  ready?(): string;
}

/** The Home Agent serial protocol (newline-delimited JSON frames), as the Arduino library speaks it. */
export const jsonDialect: FirmwareDialect = {
  decode(line, maxFrameBytes) {
    const parsed = parseRequestFrame(line, maxFrameBytes);
    if (!parsed.ok) {
      if (parsed.id === null) return { type: 'invalid' };
      // A line longer than the device reads is a failure of the device, not of the JSON: `failed`.
      const error =
        parsed.problem === 'oversized'
          ? {
              reason: 'failed',
              detail: `request longer than the ${maxFrameBytes} bytes this device reads (maxFrameBytes)`,
            }
          : { reason: parsed.problem, detail: parsed.detail };
      return { type: 'invalid', reply: encodeFrame({ id: parsed.id, ok: false, error }) };
    }
    const request = parsed.frame;
    return request.op === 'hello'
      ? { type: 'hello', id: request.id }
      : { type: 'call', id: request.id, tool: request.tool, args: request.args };
  },
  hello: (id, hello) => encodeFrame({ id, ok: true, result: hello }),
  result: (request, result) => encodeFrame({ id: request.id, ok: true, result: result ?? null }),
  failure: (request, failure) =>
    encodeFrame({
      id: request.id,
      ok: false,
      error: { reason: failure.reason, detail: failure.message, ...(failure.field ? { field: failure.field } : {}) },
    }),
  ready: () => encodeFrame({ event: READY_EVENT, data: {} }),
};
