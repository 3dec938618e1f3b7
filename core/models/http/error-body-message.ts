import { z } from 'zod';

const messageField = z.object({ message: z.string() });
const errorBodySchema = z.union([
  // OpenAI, Anthropic, Gemini: { error: { message } }; Ollama: { error: "..." }; some proxies: { message }.
  z.object({ error: z.union([z.string(), messageField]) }),
  messageField,
  z.array(z.object({ error: messageField })).min(1),
]);

const LIMIT = 300;

/**
 * The human part of an HTTP error body, whatever the provider's shape; the raw text (trimmed to a
 * few hundred characters) when it is not a known JSON shape. Empty for an empty body.
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
  if (Array.isArray(body)) return shorten(body[0]?.error.message ?? trimmed);
  if ('error' in body) return shorten(typeof body.error === 'string' ? body.error : body.error.message);
  return shorten(body.message);
}

function shorten(text: string): string {
  const single = text.replace(/\s+/g, ' ');
  return single.length > LIMIT ? `${single.slice(0, LIMIT)}…` : single;
}
