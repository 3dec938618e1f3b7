// The one list of model providers: every other module iterates it or asks a manifest, and names no
// provider (test/lint/names-seam.test.ts). Each manifest lives in its provider's folder.
import { anthropicProvider } from './anthropic/anthropic-provider.ts';
import { demoManifest } from './demo/demo-manifest.ts';
import { geminiProvider } from './gemini/gemini-provider.ts';
import { ollamaProvider } from './ollama/ollama-provider.ts';
import { openaiProvider } from './openai/openai-provider.ts';
import { scriptedManifest } from './scripted/scripted-manifest.ts';

/** The wire formats Home Agent speaks to model servers, in the order help and the form list them. */
export const PROVIDER_MANIFESTS = {
  // OpenAI's format is spoken by Ollama's `/v1` too: its hints and advice name it.
  openai: openaiProvider([ollamaProvider.alsoSpeaks]),
  anthropic: anthropicProvider,
  gemini: geminiProvider,
  ollama: ollamaProvider,
};

/** The models that need no server, listed before the wire formats. */
export const LOCAL_MODEL_MANIFESTS = {
  demo: demoManifest,
  scripted: scriptedManifest,
};

/** What a run uses when no provider is chosen: a local server when one answers (probed), else the fallback. */
export const WITHOUT_A_CHOICE = {
  probed: { id: 'ollama', manifest: ollamaProvider },
  fallback: { id: 'demo', manifest: demoManifest },
} as const;

/** The providers' own settings rows, in the settings table's order. */
export const PROVIDER_SETTINGS = { ...ollamaProvider.settings };

/** Where help shows the providers' examples: `models --help` first, `ask --help` at two places. */
export const PROVIDER_EXAMPLES = {
  models: [ollamaProvider.examples.models, PROVIDER_MANIFESTS.openai.examples.models],
  askWithoutServer: demoManifest.examples.ask,
  askWithServer: ollamaProvider.examples.ask,
};
