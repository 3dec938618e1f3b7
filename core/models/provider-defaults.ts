import { z } from 'zod';
import type { ProviderManifest } from './provider-manifest.ts';
import { LOCAL_MODEL_MANIFESTS, PROVIDER_MANIFESTS } from './provider-manifests.ts';

export type ModelProvider = keyof typeof PROVIDER_MANIFESTS;
export type LocalModel = keyof typeof LOCAL_MODEL_MANIFESTS;

function ids<K extends string>(manifests: Readonly<Record<K, unknown>>): [K, ...K[]] {
  return Object.keys(manifests) as [K, ...K[]];
}

/** The wire formats Home Agent speaks to model servers (core/models/provider-manifests.ts). */
export const modelProviderSchema = z.enum(ids(PROVIDER_MANIFESTS));
export const MODEL_PROVIDERS: readonly ModelProvider[] = modelProviderSchema.options;

/** The models that need no server. */
export const localModelSchema = z.enum(ids(LOCAL_MODEL_MANIFESTS));

/** Every provider a run can use: those that need no server (the demo planner, a scripted replay), then the wire formats. */
export const providerSchema = z.enum([...ids(LOCAL_MODEL_MANIFESTS), ...ids(PROVIDER_MANIFESTS)]);
export type Provider = z.infer<typeof providerSchema>;
export const PROVIDERS: readonly Provider[] = providerSchema.options;

/** The manifest of a wire format. */
export function providerManifest(provider: ModelProvider): ProviderManifest {
  return PROVIDER_MANIFESTS[provider];
}

function eachProvider<T>(pick: (manifest: ProviderManifest) => T): Readonly<Record<ModelProvider, T>> {
  return Object.fromEntries(
    MODEL_PROVIDERS.map((provider) => [provider, pick(PROVIDER_MANIFESTS[provider])]),
  ) as Record<ModelProvider, T>;
}

/** Where each format's server is when no base URL is given. OpenAI's carries its `/v1`. */
export const DEFAULT_BASE_URLS = eachProvider((manifest) => manifest.defaultBaseUrl);

/** The environment variable that holds each provider's key by default (`--api-key-env` overrides it). */
export const DEFAULT_API_KEY_ENV = eachProvider((manifest) => manifest.apiKeyEnv);

/** A provider's usual key variable, as an example in messages (the first provider that has one). */
export const EXAMPLE_API_KEY_ENV = MODEL_PROVIDERS.map((provider) => DEFAULT_API_KEY_ENV[provider]).find(
  (variable) => variable !== undefined,
);
