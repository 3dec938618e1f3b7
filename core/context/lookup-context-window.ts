import { z } from 'zod';
import { endpointUrl } from '../models/http/endpoint-url.ts';
import { ollamaRootUrl } from '../models/ollama/ollama-root-url.ts';
import { DEFAULT_BASE_URLS, type ModelProvider } from '../models/provider-defaults.ts';

/** All look-ups of one model give up together after this long: a turn is never held up longer. */
export const CONTEXT_LOOKUP_TIMEOUT_MS = 2_000;
/** A look-up reply larger than this is not read (OpenRouter's model list is well under it). */
const MAX_LOOKUP_BYTES = 8 * 1024 * 1024;

const positive = z.number().int().positive();
const ollamaShow = z.object({ model_info: z.record(z.string(), z.unknown()) });
const llamaCppProps = z.union([
  z.object({ default_generation_settings: z.object({ n_ctx: positive }) }),
  z.object({ n_ctx: positive }),
]);
const lmStudioModels = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      loaded_context_length: positive.nullish(),
      max_context_length: positive.nullish(),
    }),
  ),
});
const openAiModels = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      // vLLM
      max_model_len: positive.nullish(),
      // OpenRouter
      context_length: positive.nullish(),
      top_provider: z.object({ context_length: positive.nullish() }).nullish(),
    }),
  ),
});

/**
 * Asks the model's server how long its context window is: Ollama `/api/show`
 * (`model_info["<architecture>.context_length"]`, the model's own length); for OpenAI-compatible
 * servers llama.cpp `/props` (`n_ctx` of a slot), LM Studio `/api/v0/models`
 * (`loaded_context_length`, else `max_context_length`), vLLM and OpenRouter `/v1/models`
 * (`max_model_len`, `context_length`), in that order of trust. Never throws: a 404, another shape,
 * a refused connection or the 2 s deadline mean "not said" (undefined). OpenAI's own API, Anthropic
 * and Gemini are not asked (their windows are in the documented table).
 */
export async function lookupContextWindow(options: {
  provider: ModelProvider;
  baseUrl: string;
  model: string;
  headers: Record<string, string>;
  signal: AbortSignal;
  timeoutMs?: number;
}): Promise<number | undefined> {
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs ?? CONTEXT_LOOKUP_TIMEOUT_MS)]);
  const headers = { ...options.headers, accept: 'application/json' };
  const ask = (url: string, init: { method?: string; body?: unknown } = {}) =>
    askJson({ url, headers, signal, ...init });
  const { model } = options;
  if (options.provider === 'ollama') {
    const show = ollamaShow.safeParse(
      await ask(`${ollamaRootUrl(options.baseUrl)}/api/show`, { method: 'POST', body: { model, name: model } }),
    );
    return show.success ? ollamaContextLength(show.data.model_info) : undefined;
  }
  if (options.provider !== 'openai' || sameUrl(options.baseUrl, DEFAULT_BASE_URLS.openai)) return undefined;
  const root = options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  const [props, lmStudio, models] = await Promise.all([
    ask(`${root}/props`),
    ask(`${root}/api/v0/models`),
    ask(endpointUrl({ baseUrl: options.baseUrl, versionPrefix: '/v1', path: '/models', onlyOnBareHost: true })),
  ]);
  const llamaCpp = llamaCppProps.safeParse(props);
  if (llamaCpp.success)
    return 'default_generation_settings' in llamaCpp.data
      ? llamaCpp.data.default_generation_settings.n_ctx
      : llamaCpp.data.n_ctx;
  const loaded = lmStudioModels.safeParse(lmStudio);
  const lmEntry = loaded.success ? loaded.data.data.find((entry) => entry.id === model) : undefined;
  if (lmEntry?.loaded_context_length || lmEntry?.max_context_length)
    return lmEntry.loaded_context_length ?? lmEntry.max_context_length ?? undefined;
  const listed = openAiModels.safeParse(models);
  const entry = listed.success ? listed.data.data.find((candidate) => candidate.id === model) : undefined;
  return entry?.max_model_len ?? entry?.context_length ?? entry?.top_provider?.context_length ?? undefined;
}

/** `<architecture>.context_length` of Ollama's model_info (any `*.context_length` when the architecture is not named). */
function ollamaContextLength(info: Record<string, unknown>): number | undefined {
  const architecture = info['general.architecture'];
  const named = typeof architecture === 'string' ? info[`${architecture}.context_length`] : undefined;
  const value =
    named ??
    Object.entries(info).find(
      ([key, entry]) => key.endsWith('.context_length') && positive.safeParse(entry).success,
    )?.[1];
  const parsed = positive.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

function sameUrl(left: string, right: string): boolean {
  return left.replace(/\/+$/, '') === right.replace(/\/+$/, '');
}

/** The JSON of a 2xx reply, or undefined for anything else (not JSON, another status, a failure, the deadline). */
async function askJson(options: {
  url: string;
  headers: Record<string, string>;
  signal: AbortSignal;
  method?: string;
  body?: unknown;
}): Promise<unknown> {
  try {
    const response = await fetch(options.url, {
      method: options.method ?? 'GET',
      headers:
        options.body === undefined ? options.headers : { ...options.headers, 'content-type': 'application/json' },
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
