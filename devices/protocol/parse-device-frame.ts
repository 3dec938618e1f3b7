import { MAX_FRAME_BYTES, eventFrameSchema, responseFrameSchema } from './frame-schema.ts';
import type { EventFrame, ResponseFrame } from './frame-schema.ts';
import { parseJsonLine } from './parse-json-line.ts';
import { leadingRequestId } from './leading-request-id.ts';

/**
 * A line from a device, classified; anything that is not a valid frame says why instead of
 * throwing. An unreadable line that starts with a request id carries it, so its call can fail at
 * once instead of waiting for an answer that will never be read.
 */
export type DeviceFrameResult =
  | { kind: 'response'; frame: ResponseFrame }
  | { kind: 'event'; frame: EventFrame }
  | { kind: 'invalid'; problem: 'oversized' | 'invalid_json' | 'invalid_frame'; detail: string; id?: number };

/** Parses one line (newline stripped) sent by a device: a response, an event, or an invalid frame. */
export function parseDeviceFrame(line: string, maxBytes = MAX_FRAME_BYTES): DeviceFrameResult {
  const json = parseJsonLine(line, maxBytes);
  if (!json.ok) {
    const id = leadingRequestId(line);
    return { kind: 'invalid', problem: json.problem, detail: json.detail, ...(id !== null ? { id } : {}) };
  }
  const value = json.value;
  if (typeof value === 'object' && value !== null && 'event' in value) {
    const event = eventFrameSchema.safeParse(value);
    if (event.success) return { kind: 'event', frame: event.data };
    return { kind: 'invalid', problem: 'invalid_frame', detail: event.error.issues[0]?.message ?? 'bad event frame' };
  }
  const response = responseFrameSchema.safeParse(value);
  if (response.success) return { kind: 'response', frame: response.data };
  return {
    kind: 'invalid',
    problem: 'invalid_frame',
    detail: response.error.issues[0]?.message ?? 'bad response frame',
  };
}
