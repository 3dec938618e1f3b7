import { z } from 'zod';
import { LOCAL_MODEL_FACTS, PROVIDER_FACTS } from './provider-facts.ts';
import type { ProviderFacts } from './provider-manifest.ts';

export type ModelProvider = keyof typeof PROVIDER_FACTS;
export type LocalModel = keyof typeof LOCAL_MODEL_FACTS;

function ids<K extends string>(manifests: Readonly<Record<K, unknown>>): [K, ...K[]] {
  return Object.keys(manifests) as [K, ...K[]];
}

/** The wire formats Home Agent speaks to model servers (core/models/provider-facts.ts). */
export const modelProviderSchema = z.enum(ids(PROVIDER_FACTS));
export const MODEL_PROVIDERS: readonly ModelProvider[] = modelProviderSchema.options;

/** The models that need no server. */
export const localModelSchema = z.enum(ids(LOCAL_MODEL_FACTS));

/** Every provider a run can use: those that need no server (the demo planner, a scripted replay), then the wire formats. */
export const providerSchema = z.enum([...ids(LOCAL_MODEL_FACTS), ...ids(PROVIDER_FACTS)]);
export type Provider = z.infer<typeof providerSchema>;
export const PROVIDERS: readonly Provider[] = providerSchema.options;

function eachProvider<T>(pick: (facts: ProviderFacts) => T): Readonly<Record<ModelProvider, T>> {
  return Object.fromEntries(MODEL_PROVIDERS.map((provider) => [provider, pick(PROVIDER_FACTS[provider])])) as Record<
    ModelProvider,
    T
  >;
}

/** Where each format's server is when no base URL is given. OpenAI's carries its `/v1`. */
export const DEFAULT_BASE_URLS = eachProvider((facts) => facts.defaultBaseUrl);

/** The environment variable that holds each provider's key by default (`--api-key-env` overrides it). */
export const DEFAULT_API_KEY_ENV = eachProvider((facts) => facts.apiKeyEnv);

/** A provider's usual key variable, as an example in messages (the first provider that has one). */
export const EXAMPLE_API_KEY_ENV = MODEL_PROVIDERS.map((provider) => DEFAULT_API_KEY_ENV[provider]).find(
  (variable) => variable !== undefined,
);
