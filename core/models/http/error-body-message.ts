import { z } from 'zod';

const messageField = z.object({
  message: z.string(),
  // OpenAI's code for a prompt over the window; llama.cpp's counts beside its exceed_context_size_error.
  code: z.unknown().optional(),
  n_prompt_tokens: z.number().optional(),
  n_ctx: z.number().optional(),
});
const errorBodySchema = z.union([
  // OpenAI, Anthropic, Gemini: { error: { message } }; Ollama: { error: "..." }; some proxies: { message }.
  z.object({ error: z.union([z.string(), messageField]) }),
  messageField,
  z.array(z.object({ error: messageField })).min(1),
]);

const LIMIT = 300;

/**
 * The human part of an HTTP error body, whatever the provider's shape; the raw text (trimmed to a
 * few hundred characters) when it is not a known JSON shape. Empty for an empty body. The numbers
 * of a context-exceeded error that are fields, not words (llama.cpp), are added to it.
 */
export function errorBodyMessage(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    // Not JSON (an HTML error page, plain text): show the text itself.
    return shorten(trimmed);
  }
  const parsed = errorBodySchema.safeParse(value);
  if (!parsed.success) return shorten(trimmed);
  const body = parsed.data;
  if (Array.isArray(body)) return shorten(body[0] ? withCounts(body[0].error) : trimmed);
  if ('error' in body) return shorten(typeof body.error === 'string' ? body.error : withCounts(body.error));
  return shorten(withCounts(body));
}

function withCounts(error: z.infer<typeof messageField>): string {
  let text = error.message;
  if (error.code === 'context_length_exceeded' && !text.includes('context_length_exceeded'))
    text = `${text} (context_length_exceeded)`;
  if (error.n_prompt_tokens !== undefined && error.n_ctx !== undefined)
    text = `${text} (n_prompt_tokens ${error.n_prompt_tokens}, n_ctx ${error.n_ctx})`;
  return text;
}

function shorten(text: string): string {
  const single = text.replace(/\s+/g, ' ');
  return single.length > LIMIT ? `${single.slice(0, LIMIT)}…` : single;
}
