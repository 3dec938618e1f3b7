import { jsonNestingExceeds, MAX_JSON_DEPTH } from '../../core/text/json-nesting-exceeds.ts';

/** The outcome of reading one line as JSON: a value, or why it is not one. */
export type JsonLineResult =
  { ok: true; value: unknown } | { ok: false; problem: 'oversized' | 'invalid_json'; detail: string };

/**
 * Safe-parses one untrusted line as JSON, refusing lines over `maxBytes` or nested deeper than
 * MAX_JSON_DEPTH (a hello's parameter schemas nest a few levels inside the frame) before parsing them.
 * The only place in devices/ that calls JSON.parse; callers validate the value with zod.
 */
export function parseJsonLine(line: string, maxBytes: number): JsonLineResult {
  const bytes = Buffer.byteLength(line, 'utf8');
  if (bytes > maxBytes) return { ok: false, problem: 'oversized', detail: `${bytes} bytes > ${maxBytes}` };
  if (jsonNestingExceeds(line, MAX_JSON_DEPTH)) {
    return {
      ok: false,
      problem: 'invalid_json',
      detail: `the frame is nested more than ${MAX_JSON_DEPTH} levels deep; at most ${MAX_JSON_DEPTH} are allowed`,
    };
  }
  try {
    return { ok: true, value: JSON.parse(line) as unknown };
  } catch (error) {
    return { ok: false, problem: 'invalid_json', detail: (error as Error).message };
  }
}
