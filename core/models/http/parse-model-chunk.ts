import type { z } from 'zod';
import { ModelError } from '../model-error.ts';

const SNIPPET = 160;

/**
 * Parses one chunk of a model stream through its zod schema. Not JSON, or a field the adapter uses
 * with the wrong shape, is a `bad_chunk` ModelError naming the provider and the field — never a
 * silently dropped tool call. Extra fields are the schema's business (they are allowed).
 */
export function parseModelChunk<T>(options: { provider: string; text: string; schema: z.ZodType<T> }): T {
  return validateChunk({ ...options, value: parseJsonChunk(options) });
}

/** The JSON value of a chunk, or a `bad_chunk` ModelError when it is not JSON. */
export function parseJsonChunk(options: { provider: string; text: string }): unknown {
  try {
    return JSON.parse(options.text);
  } catch (error) {
    throw new ModelError({
      kind: 'bad_chunk',
      provider: options.provider,
      cause: error,
      message: `${options.provider} sent a chunk that is not JSON: ${snippet(options.text)}`,
    });
  }
}

/** Checks an already parsed chunk against a schema; `bad_chunk` naming the first wrong field. */
export function validateChunk<T>(options: { provider: string; text: string; value: unknown; schema: z.ZodType<T> }): T {
  const parsed = options.schema.safeParse(options.value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : '(the chunk itself)';
  return throwBadChunk({
    provider: options.provider,
    field,
    problem: issue?.message ?? 'unexpected shape',
    text: options.text,
  });
}

/** Throws the `bad_chunk` ModelError for a field whose value the adapter cannot use. */
export function throwBadChunk(options: { provider: string; field: string; problem: string; text: string }): never {
  throw new ModelError({
    kind: 'bad_chunk',
    provider: options.provider,
    message: `${options.provider} sent a chunk with an unexpected field ${options.field} (${options.problem}): ${snippet(options.text)}`,
  });
}

/** True when the text is whole JSON (a trailing chunk that does not parse was cut, not malformed). */
export function isWholeJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    // Incomplete JSON is the answer here, not an error.
    return false;
  }
}

function snippet(text: string): string {
  const single = text.replace(/\s+/g, ' ').trim();
  return single.length > SNIPPET ? `${single.slice(0, SNIPPET)}…` : single;
}
