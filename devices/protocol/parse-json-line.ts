import { jsonNestingExceeds } from '../../core/stream/json-nesting-exceeds.ts';

/**
 * How deep a frame may nest. A hello's parameter schemas nest a few levels inside the frame, a
 * reading fewer; 64 leaves room for both, like a model's arguments, and keeps every recursive walk
 * of the value (validation, the journal's JSON, the web socket) far from the stack limit.
 */
export const MAX_FRAME_DEPTH = 64;

/** The outcome of reading one line as JSON: a value, or why it is not one. */
export type JsonLineResult =
  { ok: true; value: unknown } | { ok: false; problem: 'oversized' | 'invalid_json'; detail: string };

/**
 * Safe-parses one untrusted line as JSON, refusing lines over `maxBytes` or nested deeper than
 * MAX_FRAME_DEPTH before parsing them.
 * The only place in devices/ that calls JSON.parse; callers validate the value with zod.
 */
export function parseJsonLine(line: string, maxBytes: number): JsonLineResult {
  const bytes = Buffer.byteLength(line, 'utf8');
  if (bytes > maxBytes) return { ok: false, problem: 'oversized', detail: `${bytes} bytes > ${maxBytes}` };
  if (jsonNestingExceeds(line, MAX_FRAME_DEPTH)) {
    return {
      ok: false,
      problem: 'invalid_json',
      detail: `the frame is nested more than ${MAX_FRAME_DEPTH} levels deep; at most ${MAX_FRAME_DEPTH} are allowed`,
    };
  }
  try {
    return { ok: true, value: JSON.parse(line) as unknown };
  } catch (error) {
    return { ok: false, problem: 'invalid_json', detail: (error as Error).message };
  }
}
