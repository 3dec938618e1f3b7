import { isRecord } from '../text/is-record.ts';

/**
 * A tool result as a JSON object, for formats that want one (Gemini `functionResponse.response`):
 * the content itself when it is a JSON object, else `{ result }` or, for a failure, `{ error }`.
 */
export function resultObject(options: { content: string; isError: boolean }): Record<string, unknown> {
  const parsed = parseObject(options.content);
  if (parsed && !options.isError) return parsed;
  return options.isError ? { error: parsed ?? options.content } : { result: options.content };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isRecord(value) ? value : undefined;
  } catch {
    // Not JSON after all: the caller wraps the text as it is.
    return undefined;
  }
}
