import { listModels, type ModelInfo } from '../../core/models/list-models.ts';
import { ModelError } from '../../core/models/model-error.ts';
import {
  DEFAULT_BASE_URLS,
  localModelSchema,
  modelProviderSchema,
  type ModelProvider,
} from '../../core/models/provider-defaults.ts';
import { LOCAL_MODEL_MANIFESTS, WITHOUT_A_CHOICE } from '../../core/models/provider-manifests.ts';
import { MODEL_SETTING_KEYS, type ModelSettingKey, type Settings } from '../contract/settings-table.ts';
import { apiKeySecretName } from '../secrets/secret-store.ts';
import { describeForgottenWindows } from '../models/describe-forgotten-windows.ts';
import { ModelConfigError, resolveApiKey } from '../models/select-model.ts';
import type { ApiHandlersOf } from './api-handlers.ts';
import type { HostParts } from './host-parts.ts';

const LIST_TIMEOUT_MS = 10_000;
/** How many model names a message lists before it says how many more there are. */
const NAMES_IN_A_MESSAGE = 8;

type ModelFields = Pick<Settings, ModelSettingKey>;

/**
 * The model server, asked from the Settings form: the models it offers (the model picker) and
 * "Test connection". Fields the form sends (its drafts) win over the settings in use, so a choice
 * can be tried before it is saved. Neither ever sends a key back. And "Forget learned windows".
 */
export function modelHandlers(
  parts: HostParts,
): ApiHandlersOf<'models/list' | 'models/test' | 'models/forget-windows'> {
  const storedApiKey = (provider: string): string | undefined => parts.secrets?.get(apiKeySecretName(provider));

  /** The models of the remote choice, or the message that says why they cannot be listed. */
  async function modelsOf(
    fields: ModelFields & { provider: ModelProvider },
  ): Promise<{ ok: true; models: ModelInfo[]; baseUrl: string } | { ok: false; message: string }> {
    const baseUrl = fields.baseUrl ?? DEFAULT_BASE_URLS[fields.provider];
    try {
      const apiKey = resolveApiKey(fields, storedApiKey);
      const models = await listModels({
        provider: fields.provider,
        baseUrl,
        ...(apiKey ? { apiKey } : {}),
        timeoutMs: LIST_TIMEOUT_MS,
      });
      return { ok: true, models, baseUrl };
    } catch (error) {
      // A model error names its provider first ("openai: cannot reach …"): the form already does.
      if (ModelError.isInstance(error))
        return { ok: false, message: sentence(error.message.replace(new RegExp(`^${fields.provider}: `), '')) };
      if (error instanceof ModelConfigError) return { ok: false, message: sentence(error.message) };
      throw error;
    }
  }

  return {
    'models/list': async (input) => {
      const fields = tried(parts.settings(), input);
      const provider = modelProviderSchema.safeParse(fields.provider);
      if (!provider.success)
        return { ok: false, message: `${nameOf(fields.provider)} has no list of models: choose a model server first.` };
      const listed = await modelsOf({ ...fields, provider: provider.data });
      return listed.ok ? { ok: true, models: listed.models } : listed;
    },
    'models/test': async (input) => {
      const fields = tried(parts.settings(), input);
      const local = localModelSchema.safeParse(fields.provider);
      if (local.success) return { ok: true, message: LOCAL_MODEL_MANIFESTS[local.data].testMessage };
      const { probed } = WITHOUT_A_CHOICE;
      const provider = modelProviderSchema.safeParse(fields.provider ?? probed.id);
      if (!provider.success) return { ok: false, message: `Unknown provider ${String(fields.provider)}.` };
      const listed = await modelsOf({ ...fields, provider: provider.data });
      if (!listed.ok) return listed;
      const count = `${listed.models.length} model${listed.models.length === 1 ? '' : 's'}`;
      const where =
        fields.provider === undefined
          ? `No provider is chosen; a local ${probed.manifest.displayName} answers at ${listed.baseUrl} with ${count}`
          : `Connected to ${listed.baseUrl}: it offers ${count}`;
      if (fields.model === undefined) return { ok: true, message: `${where}. Choose one as the model.` };
      if (offers(listed.models, fields.model)) return { ok: true, message: `${where}, ${fields.model} among them.` };
      return {
        ok: false,
        message: `${where}, but none named ${fields.model}${listed.models.length > 0 ? `. It offers: ${namesOf(listed.models)}` : ''}.`,
      };
    },
    'models/forget-windows': (input) => {
      const filter = {
        ...(input.baseUrl !== undefined ? { baseUrl: input.baseUrl } : {}),
        ...(input.model !== undefined ? { model: input.model } : {}),
      };
      const forgotten = parts.context.forgetWindows(filter);
      return { forgotten, message: describeForgottenWindows(forgotten, filter) };
    },
  };
}

/** The fields the form tries: given ones over the settings in use, null ones left unset (the provider's default). */
function tried(settings: Settings, input: { [K in ModelSettingKey]?: Settings[K] | null }): ModelFields {
  const fields: Record<string, unknown> = { ...effective(settings) };
  for (const key of MODEL_SETTING_KEYS) {
    const value = input[key];
    if (value === null) delete fields[key];
    else if (value !== undefined) fields[key] = value;
  }
  return fields as ModelFields;
}

/** Only the model fields of the settings in use. */
function effective(settings: Settings): ModelFields {
  const fields: Record<string, unknown> = {};
  for (const key of MODEL_SETTING_KEYS) if (settings[key] !== undefined) fields[key] = settings[key];
  return fields as ModelFields;
}

/** Ollama lists `llama3.1:latest` for the model people call `llama3.1`. */
function offers(models: readonly ModelInfo[], model: string): boolean {
  return models.some((entry) => entry.id === model || entry.id === `${model}:latest`);
}

function namesOf(models: readonly ModelInfo[]): string {
  const names = models.slice(0, NAMES_IN_A_MESSAGE).map((model) => model.id);
  const more = models.length - names.length;
  return `${names.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

function nameOf(provider: string | undefined): string {
  return provider === undefined ? 'No provider' : `The ${provider} provider`;
}

/** A message as a sentence: capitalised, with its full stop. */
function sentence(text: string): string {
  const trimmed = text.trim();
  const capitalised = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?)]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}
