import { z } from 'zod';
import { askJson } from '../http/ask-json.ts';
import { endpointUrl } from '../http/endpoint-url.ts';
import type { WindowLookup } from '../provider-manifest.ts';
import { OPENAI_BASE_URL } from './openai-server.ts';

const positive = z.number().int().positive();
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
const listedModels = z.object({
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
 * A compatible server's window: llama.cpp `/props` (`n_ctx` of a slot), LM Studio `/api/v0/models`
 * (`loaded_context_length`, else `max_context_length`), vLLM and OpenRouter `/v1/models`
 * (`max_model_len`, `context_length`), in that order of trust. OpenAI's own API is not asked (its
 * windows are documented).
 */
export async function openAiContextWindow(lookup: WindowLookup): Promise<number | undefined> {
  const { baseUrl, model, headers, signal } = lookup;
  if (sameUrl(baseUrl, OPENAI_BASE_URL)) return undefined;
  const ask = (url: string) => askJson({ url, headers, signal });
  const root = baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  const [props, lmStudio, models] = await Promise.all([
    ask(`${root}/props`),
    ask(`${root}/api/v0/models`),
    ask(endpointUrl({ baseUrl, versionPrefix: '/v1', path: '/models', onlyOnBareHost: true })),
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
  const listed = listedModels.safeParse(models);
  const entry = listed.success ? listed.data.data.find((candidate) => candidate.id === model) : undefined;
  return entry?.max_model_len ?? entry?.context_length ?? entry?.top_provider?.context_length ?? undefined;
}

function sameUrl(left: string, right: string): boolean {
  return left.replace(/\/+$/, '') === right.replace(/\/+$/, '');
}
