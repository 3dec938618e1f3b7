/** The outcome of reading a call's argument text. */
export type ParsedArguments = { ok: true; args: Record<string, unknown> } | { ok: false; detail: string };

/**
 * Reads streamed argument text: empty means `{}`; otherwise it must be one JSON object.
 * Returns a result instead of throwing, since the text comes from the model.
 */
export function parseToolArguments(text: string): ParsedArguments {
  if (text.trim() === '') return { ok: true, args: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, detail: `the arguments are not valid JSON (${(error as Error).message})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      ok: false,
      detail: `the arguments must be a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}`,
    };
  }
  return { ok: true, args: value as Record<string, unknown> };
}
