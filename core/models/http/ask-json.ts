/** A look-up reply larger than this is not read (OpenRouter's model list is well under it). */
const MAX_LOOKUP_BYTES = 8 * 1024 * 1024;

/** The JSON of a 2xx reply, or undefined for anything else (not JSON, another status, a failure, the deadline). */
export async function askJson(options: {
  url: string;
  headers: Record<string, string>;
  signal: AbortSignal;
  method?: string;
  body?: unknown;
}): Promise<unknown> {
  try {
    const headers = { ...options.headers, accept: 'application/json' };
    const response = await fetch(options.url, {
      method: options.method ?? 'GET',
      headers: options.body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      signal: options.signal,
    });
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      return undefined;
    }
    const text = await readCapped(response.body, MAX_LOOKUP_BYTES);
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  } catch (error) {
    // Refused, reset, timed out, or not JSON: the server did not say. A look-up only ever informs.
    void error;
    return undefined;
  }
}

async function readCapped(body: ReadableStream<Uint8Array>, limit: number): Promise<string | undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8');
  let bytes = 0;
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text + decoder.decode();
      bytes += value.byteLength;
      if (bytes > limit) return undefined;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    reader.cancel().catch((error: unknown) => void error);
  }
}
