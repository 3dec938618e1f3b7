import { jsonNestingExceeds } from './json-nesting-exceeds.ts';

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
  if (jsonNestingExceeds(text, MAX_ARGUMENT_DEPTH)) {
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
