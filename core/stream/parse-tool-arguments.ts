import { jsonNestingExceeds, MAX_JSON_DEPTH } from '../text/json-nesting-exceeds.ts';
import { argumentDepthProblem, argumentsTextProblem, type ArgumentBounds } from '../tools/argument-bounds.ts';

/** The outcome of reading a call's argument text. */
export type ParsedArguments = { ok: true; args: Record<string, unknown> } | { ok: false; detail: string };

/**
 * Reads streamed argument text: empty means `{}`; otherwise it must be one JSON object nested at
 * most `MAX_JSON_DEPTH` levels and, when `bounds` are given, at most `bounds.maxBytes` long.
 * Returns a result instead of throwing, since the text comes from the model.
 */
export function parseToolArguments(text: string, bounds?: ArgumentBounds): ParsedArguments {
  if (text.trim() === '') return { ok: true, args: {} };
  const tooLarge = argumentsTextProblem(text, bounds);
  if (tooLarge !== undefined) return { ok: false, detail: tooLarge };
  // Checked on the text, before JSON.parse builds the tree, with a loop rather than recursion.
  if (jsonNestingExceeds(text, MAX_JSON_DEPTH)) return { ok: false, detail: argumentDepthProblem() };
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
