/** The outcome of reading a call's argument text. */
export type ParsedArguments = { ok: true; args: Record<string, unknown> } | { ok: false; detail: string };

/**
 * How deep a call's arguments may nest (the arguments object itself is level 1). Real tool schemas
 * nest a handful of levels; 64 leaves room for any of them while keeping every recursive walk the
 * arguments meet later (validation, slot references, JSON writers with a replacer, the renderer)
 * far from the stack limit, which 2,500 nested arrays reached.
 */
export const MAX_ARGUMENT_DEPTH = 64;

/**
 * Reads streamed argument text: empty means `{}`; otherwise it must be one JSON object nested at
 * most `MAX_ARGUMENT_DEPTH` levels. Returns a result instead of throwing, since the text comes from the model.
 */
export function parseToolArguments(text: string): ParsedArguments {
  if (text.trim() === '') return { ok: true, args: {} };
  // Checked on the text, before JSON.parse builds the tree, with a loop rather than recursion.
  if (nestingExceeds(text, MAX_ARGUMENT_DEPTH)) {
    return {
      ok: false,
      detail: `the arguments are nested more than ${MAX_ARGUMENT_DEPTH} levels deep; at most ${MAX_ARGUMENT_DEPTH} are allowed`,
    };
  }
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

/** True when `{`/`[` outside strings open more than `limit` levels at some point of the text. */
function nestingExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let position = 0; position < text.length; position += 1) {
    const code = text.charCodeAt(position);
    if (inString) {
      if (code === 0x5c /* \ */) position += 1;
      else if (code === 0x22 /* " */) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) depth -= 1;
  }
  return false;
}
