import { readFile } from 'node:fs/promises';
import type { ModelAdapter } from '../../core/models/model-adapter.ts';
import type { LocalModelManifest } from '../../core/models/provider-manifest.ts';
import { ScriptedModel, scriptSchema } from '../../core/models/scripted/scripted-model.ts';
import type { ModelChoice } from './model-choice.ts';
import { createModelAdapter } from '../../core/models/create-model-adapter.ts';
import {
  DEFAULT_API_KEY_ENV,
  localModelSchema,
  modelProviderSchema,
  type ModelProvider,
} from '../../core/models/provider-defaults.ts';
import { LOCAL_MODEL_MANIFESTS, WITHOUT_A_CHOICE } from '../../core/models/provider-manifests.ts';
import { listModels } from '../../core/models/list-models.ts';

/** The model a run uses, with a notice saying how it was chosen (shown by every front end). */
export interface SelectedModel {
  adapter: ModelAdapter;
  notice?: string;
  /** The notice in the window's words, where the terminal's name a flag. */
  noticeInWindow?: string;
}

/**
 * A configuration problem a person must fix; the message names what and how, in a terminal's
 * words (flags), and `inWindow` in the window's (Settings fields) where they differ.
 */
export class ModelConfigError extends Error {
  override readonly name = 'ModelConfigError';
  readonly inWindow: string;

  constructor(message: string, options: { inWindow?: string } = {}) {
    super(message);
    this.inWindow = options.inWindow ?? message;
  }
}

/**
 * Builds the model adapter for a choice. With no provider configured, a local server or the fallback
 * model is used (core/models/provider-manifests.ts) and the notice says so.
 */
export async function selectModel(
  choice: ModelChoice,
  options: { storedApiKey?: (provider: string) => string | undefined } = {},
): Promise<SelectedModel> {
  const provider = choice.provider;
  if (provider === undefined) return defaultModel(choice);
  if (provider === 'scripted') {
    if (!choice.scriptFile)
      throw new ModelConfigError(
        '--provider scripted needs --script FILE (a JSON file {"replies":[…]}); it can only be chosen on the command line',
        {
          inWindow:
            'The scripted model replays a file that can only be given on the command line (--script FILE): choose another provider in Settings.',
        },
      );
    return { adapter: new ScriptedModel(await readScript(choice.scriptFile)) };
  }
  const local = localModelSchema.safeParse(provider);
  if (local.success) return { adapter: localAdapter(LOCAL_MODEL_MANIFESTS[local.data]) };
  const remote = modelProviderSchema.parse(provider);
  return { adapter: await selectRemoteModel({ ...choice, provider: remote }, options.storedApiKey) };
}

async function readScript(file: string) {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ModelConfigError(`cannot read the script ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ModelConfigError(`the script ${file} is not JSON: ${(error as Error).message}`);
  }
  const parsed = scriptSchema.safeParse(json);
  if (!parsed.success) {
    throw new ModelConfigError(
      `the script ${file} is not a script: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

/** The adapter of a model that needs no server and nothing but itself. */
function localAdapter(manifest: LocalModelManifest): ModelAdapter {
  if (!manifest.create) throw new Error('this model needs more than its name to run');
  return manifest.create();
}

/**
 * Nothing configured: the probed local server, with a model pulled, is used when one answers on its
 * default address (unless its skip variable is 1); otherwise the fallback model. The notice says
 * which, and why.
 */
async function defaultModel(choice: ModelChoice): Promise<SelectedModel> {
  const { probed, fallback } = WITHOUT_A_CHOICE;
  const server = probed.manifest;
  const baseUrl = choice.baseUrl ?? server.defaultBaseUrl;
  const fallbackModel = fallback.manifest.described;
  if (process.env[server.probe.skipVariable] !== '1' && (await server.probe.answers(baseUrl))) {
    const models = await listModels({ provider: probed.id, baseUrl }).catch(() => []);
    const model = choice.model ?? models[0]?.id;
    if (model) {
      const using = `No model is configured: using ${server.displayName} at ${baseUrl} with ${model}.`;
      return {
        adapter: createModelAdapter({ provider: probed.id, baseUrl, model }),
        notice: `${using} Pass --provider to choose another.`,
        noticeInWindow: `${using} Choose another in Settings.`,
      };
    }
    return {
      adapter: fallback.manifest.create(),
      notice: `${server.displayName} answers at ${baseUrl} but has no model pulled (${server.firstModelHint}): using ${fallbackModel}.`,
    };
  }
  return {
    adapter: fallback.manifest.create(),
    notice: `No model is configured and no ${server.displayName} answers at ${baseUrl}: using ${fallbackModel}. See README "Models" to connect one.`,
  };
}

/**
 * The API key of a remote choice: the variable named explicitly (a ModelConfigError when it is not
 * set), else the OS keychain (desktop app), else the provider's usual variable; undefined when none.
 */
export function resolveApiKey(
  choice: Pick<ModelChoice, 'apiKeyEnv'> & { provider: ModelProvider },
  storedApiKey?: (provider: string) => string | undefined,
): string | undefined {
  const explicit = choice.apiKeyEnv ? process.env[choice.apiKeyEnv] : undefined;
  if (choice.apiKeyEnv && !explicit)
    throw new ModelConfigError(
      `the API key variable ${choice.apiKeyEnv} is not set on this machine (export ${choice.apiKeyEnv}=… before starting Home Agent)`,
      {
        inWindow: `The API key variable ${choice.apiKeyEnv} is not set where Home Agent runs: set it before Home Agent starts, or empty "API key variable" in Settings.`,
      },
    );
  const defaultVariable = DEFAULT_API_KEY_ENV[choice.provider];
  return explicit ?? storedApiKey?.(choice.provider) ?? (defaultVariable ? process.env[defaultVariable] : undefined);
}

async function selectRemoteModel(
  choice: ModelChoice & { provider: ModelProvider },
  storedApiKey?: (provider: string) => string | undefined,
): Promise<ModelAdapter> {
  if (!choice.model) {
    throw new ModelConfigError(
      `--provider ${choice.provider} needs --model M, or a Model in Settings (list what the server offers with: home-agent models --provider ${choice.provider}${choice.baseUrl ? ` --base-url ${choice.baseUrl}` : ''})`,
      {
        inWindow: `The ${choice.provider} provider needs a model: fill in Model in Settings ("Show the server’s models" lists what the server offers).`,
      },
    );
  }
  const apiKey = resolveApiKey(choice, storedApiKey);
  return createModelAdapter({
    provider: choice.provider,
    model: choice.model,
    ...(choice.baseUrl ? { baseUrl: choice.baseUrl } : {}),
    ...(apiKey ? { apiKey } : {}),
  });
}
