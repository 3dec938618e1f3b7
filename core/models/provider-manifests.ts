// The one list of the model providers' adapters, under the ids of the list of their facts
// (core/models/provider-facts.ts, data only, which the window reads). Every other module iterates
// these lists or asks an entry, and names no provider (test/lint/names-seam.test.ts). Each manifest
// lives in its provider's folder.
import { anthropicProvider } from './anthropic/anthropic-provider.ts';
import { demoManifest } from './demo/demo-manifest.ts';
import { geminiProvider } from './gemini/gemini-provider.ts';
import { ollamaProvider } from './ollama/ollama-provider.ts';
import { openaiProvider } from './openai/openai-provider.ts';
import type { ModelProvider } from './provider-defaults.ts';
import { LOCAL_MODEL_FACTS, PROVIDER_FACTS, WITHOUT_A_CHOICE_IDS } from './provider-facts.ts';
import type { LocalModelManifest, ProviderManifest } from './provider-manifest.ts';
import { scriptedManifest } from './scripted/scripted-manifest.ts';

/** The wire formats Home Agent speaks to model servers, each from its facts. */
export const PROVIDER_MANIFESTS = {
  openai: openaiProvider(PROVIDER_FACTS.openai),
  anthropic: anthropicProvider,
  gemini: geminiProvider,
  ollama: ollamaProvider,
} satisfies { [K in keyof typeof PROVIDER_FACTS]: ProviderManifest };

/** The models that need no server. */
export const LOCAL_MODEL_MANIFESTS = {
  demo: demoManifest,
  scripted: scriptedManifest,
} satisfies { [K in keyof typeof LOCAL_MODEL_FACTS]: LocalModelManifest };

/** What a run uses when no provider is chosen: a local server when one answers (probed), else the fallback. */
export const WITHOUT_A_CHOICE = {
  probed: { id: WITHOUT_A_CHOICE_IDS.probed, manifest: PROVIDER_MANIFESTS[WITHOUT_A_CHOICE_IDS.probed] },
  fallback: { id: WITHOUT_A_CHOICE_IDS.fallback, manifest: LOCAL_MODEL_MANIFESTS[WITHOUT_A_CHOICE_IDS.fallback] },
} as const;

/** The manifest of a wire format. */
export function providerManifest(provider: ModelProvider): ProviderManifest {
  return PROVIDER_MANIFESTS[provider];
}

export { PROVIDER_EXAMPLES, PROVIDER_SETTINGS } from './provider-facts.ts';
