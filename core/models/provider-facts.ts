// The one list of what is said of the model providers, data only: the API contract, the settings
// table and the window read it (the window's bundle holds no adapter: test/lint/renderer-bundle.test.ts).
// Their adapters are listed beside, under the same ids, in core/models/provider-manifests.ts. Every
// other module iterates these lists or asks an entry, and names no provider (test/lint/names-seam.test.ts).
import { anthropicFacts } from './anthropic/anthropic-facts.ts';
import { demoFacts } from './demo/demo-facts.ts';
import { geminiFacts } from './gemini/gemini-facts.ts';
import { ollamaFacts } from './ollama/ollama-facts.ts';
import { openaiFacts } from './openai/openai-facts.ts';
import { scriptedManifest } from './scripted/scripted-manifest.ts';

/** The wire formats Home Agent speaks to model servers, in the order help and the form list them. */
export const PROVIDER_FACTS = {
  // OpenAI's format is spoken by Ollama's `/v1` too: its hints and advice name it.
  openai: openaiFacts([ollamaFacts.alsoSpeaks]),
  anthropic: anthropicFacts,
  gemini: geminiFacts,
  ollama: ollamaFacts,
};

/** The models that need no server, listed before the wire formats. */
export const LOCAL_MODEL_FACTS = {
  demo: demoFacts,
  scripted: scriptedManifest,
};

/** What a run uses when no provider is chosen: a local server when one answers (probed), else the fallback. */
export const WITHOUT_A_CHOICE_IDS = { probed: 'ollama', fallback: 'demo' } as const satisfies {
  probed: keyof typeof PROVIDER_FACTS;
  fallback: keyof typeof LOCAL_MODEL_FACTS;
};

/** The providers' own settings rows, in the settings table's order. */
export const PROVIDER_SETTINGS = { ...ollamaFacts.settings };

/** Where help shows the providers' examples: `models --help` first, `ask --help` at two places. */
export const PROVIDER_EXAMPLES = {
  models: [ollamaFacts.examples.models, PROVIDER_FACTS.openai.examples.models],
  askWithoutServer: demoFacts.examples.ask,
  askWithServer: ollamaFacts.examples.ask,
};
