import { parseArgs } from 'node:util';
import { listModels } from '../../../core/models/list-models.ts';
import { ModelError } from '../../../core/models/model-error.ts';
import { DEFAULT_API_KEY_ENV, MODEL_PROVIDERS, type ModelProvider } from '../../../core/models/provider-defaults.ts';

export const MODELS_USAGE =
  'home-agent models --provider openai|anthropic|gemini|ollama [--base-url URL] [--api-key-env VAR] [--json]';

/**
 * `home-agent models`: lists the models a server offers, one id per line (or one JSON array with
 * `--json`). Exit status 0 on success, 1 when the server fails (the reason on stderr), 2 for a
 * wrong command line. The key is read from `--api-key-env` or the provider's usual variable.
 */
export async function runModelsCommand(
  argv: string[],
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; signal?: AbortSignal },
): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        provider: { type: 'string' },
        'base-url': { type: 'string' },
        'api-key-env': { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (error) {
    io.stderr.write(`home-agent models: ${(error as Error).message}\nusage: ${MODELS_USAGE}\n`);
    return 2;
  }
  if (values.help) {
    io.stdout.write(`usage: ${MODELS_USAGE}\n`);
    return 0;
  }
  const provider = values.provider;
  if (!isProvider(provider)) {
    io.stderr.write(
      `home-agent models: --provider must be one of ${MODEL_PROVIDERS.join(', ')}\nusage: ${MODELS_USAGE}\n`,
    );
    return 2;
  }
  const keyVariable = values['api-key-env'] ?? DEFAULT_API_KEY_ENV[provider];
  const apiKey = keyVariable ? process.env[keyVariable] : undefined;
  if (values['api-key-env'] && !apiKey) {
    io.stderr.write(`home-agent models: the environment variable ${values['api-key-env']} is not set\n`);
    return 2;
  }
  try {
    const options: Parameters<typeof listModels>[0] = { provider };
    if (values['base-url']) options.baseUrl = values['base-url'];
    if (apiKey) options.apiKey = apiKey;
    if (io.signal) options.signal = io.signal;
    const models = await listModels(options);
    if (values.json) io.stdout.write(`${JSON.stringify(models)}\n`);
    else for (const model of models) io.stdout.write(model.name ? `${model.id}\t${model.name}\n` : `${model.id}\n`);
    return 0;
  } catch (error) {
    if (!ModelError.isInstance(error)) throw error;
    io.stderr.write(`home-agent models: ${error.message}\n`);
    return 1;
  }
}

function isProvider(value: string | undefined): value is ModelProvider {
  return MODEL_PROVIDERS.some((provider) => provider === value);
}
