import { parseArgs } from 'node:util';
import { listModels } from '../../../core/models/list-models.ts';
import { ModelError } from '../../../core/models/model-error.ts';
import { DEFAULT_API_KEY_ENV, MODEL_PROVIDERS, type ModelProvider } from '../../../core/models/provider-defaults.ts';
import { formatHelp, type CommandHelp } from '../command-help.ts';
import { explainUsageError } from '../explain-usage-error.ts';
import { closestWord } from '../closest-word.ts';

export const MODELS_HELP: CommandHelp = {
  name: 'models',
  summary: 'list the models a model server offers',
  usage: ['models --provider openai|anthropic|gemini|ollama [--base-url URL] [--api-key-env VAR] [--json]'],
  description: [
    'Asks the model server which models it offers and prints one id per line (a display name after a tab',
    'where the server gives one). Use an id with --model, or pick it in the Settings tab. The key comes',
    'from --api-key-env, else the provider’s usual variable (OPENAI_API_KEY, ANTHROPIC_API_KEY,',
    'GEMINI_API_KEY); it is never printed. Exit status: 0 listed, 1 the server failed (why on stderr),',
    '2 a wrong command line.',
  ].join('\n'),
  options: [
    { flag: '--provider P', text: `The server's wire format: ${MODEL_PROVIDERS.join(', ')}.` },
    { flag: '--base-url URL', text: 'Where the server answers (default: the provider’s usual address).' },
    { flag: '--api-key-env VAR', text: 'The environment variable that holds the key.' },
    { flag: '--json', text: 'Print one JSON array of {id, name?} instead.' },
  ],
  examples: [
    { command: 'home-agent models --provider ollama', text: 'The models pulled into the local Ollama.' },
    {
      command: 'home-agent models --provider openai --base-url http://127.0.0.1:1234/v1',
      text: 'An OpenAI-compatible server such as LM Studio.',
    },
  ],
};

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
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    io.stderr.write(explainUsageError(MODELS_HELP, error));
    return 2;
  }
  if (values.help) {
    io.stdout.write(formatHelp(MODELS_HELP));
    return 0;
  }
  const provider = values.provider;
  if (!isProvider(provider)) {
    const suggestion = provider === undefined ? undefined : closestWord(provider, MODEL_PROVIDERS);
    io.stderr.write(
      explainUsageError(
        MODELS_HELP,
        new Error(
          `--provider must be one of ${MODEL_PROVIDERS.join(', ')}${suggestion ? `. Did you mean ${suggestion}?` : ''}`,
        ),
      ),
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
