import { z } from 'zod';
import { askJson } from '../http/ask-json.ts';
import type { WindowLookup } from '../provider-manifest.ts';
import { ollamaRootUrl } from './ollama-root-url.ts';

const positive = z.number().int().positive();
const ollamaShow = z.object({ model_info: z.record(z.string(), z.unknown()) });

/** Ollama's `/api/show`: `model_info["<architecture>.context_length"]`, the model's own length. */
export async function ollamaContextWindow(lookup: WindowLookup): Promise<number | undefined> {
  const { model } = lookup;
  const show = ollamaShow.safeParse(
    await askJson({
      url: `${ollamaRootUrl(lookup.baseUrl)}/api/show`,
      headers: lookup.headers,
      signal: lookup.signal,
      method: 'POST',
      body: { model, name: model },
    }),
  );
  return show.success ? contextLength(show.data.model_info) : undefined;
}

/** `<architecture>.context_length` of model_info (any `*.context_length` when the architecture is not named). */
function contextLength(info: Record<string, unknown>): number | undefined {
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
