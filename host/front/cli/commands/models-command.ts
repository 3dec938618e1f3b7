import { parseArgs } from 'node:util';
import { listModels } from '../../../../core/models/list-models.ts';
import { ModelError } from '../../../../core/models/model-error.ts';
import { DEFAULT_API_KEY_ENV, MODEL_PROVIDERS, type ModelProvider } from '../../../../core/models/provider-defaults.ts';
import { formatHelp } from '../../command-line/command-help.ts';
import { explainUsageError } from '../explain-usage-error.ts';
import { closestWord } from '../closest-word.ts';
import { UsageError } from '../../command-line/cli-io.ts';
import { forgetLearnedWindows } from './forget-learned-windows.ts';
import { MODELS_HELP } from './models-help.ts';

/** The actions besides listing; adding one is one entry. */
const ACTIONS = ['forget-window'] as const;
/** The flags only listing takes, and those only forget-window takes. */
const LIST_FLAGS = ['provider', 'api-key-env', 'json'] as const;
const FORGET_FLAGS = ['model', 'data-dir'] as const;

/**
 * `home-agent models`: lists the models a server offers, one id per line (or one JSON array with
 * `--json`). Exit status 0 on success, 1 when the server fails (the reason on stderr), 2 for a
 * wrong command line. The key is read from `--api-key-env` or the provider's usual variable.
 * `models forget-window` forgets learned context windows (forget-learned-windows.ts).
 */
export async function runModelsCommand(
  argv: string[],
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; signal?: AbortSignal },
): Promise<number> {
  let values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: {
        provider: { type: 'string' },
        'base-url': { type: 'string' },
        'api-key-env': { type: 'string' },
        json: { type: 'boolean' },
        model: { type: 'string' },
        'data-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
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
  const [action, ...rest] = positionals;
  if (action !== undefined) {
    if (!ACTIONS.some((known) => known === action)) {
      const suggestion = closestWord(action, ACTIONS);
      throw new UsageError(
        `unknown models action '${action}'.${suggestion ? ` Did you mean ${suggestion}?` : ''} Actions: ${ACTIONS.join(', ')}; without one, models lists a server's models`,
      );
    }
    if (rest.length > 0)
      throw new UsageError(`forget-window takes no arguments (got ${rest.join(' ')}): use --model and --base-url`);
    const stray = LIST_FLAGS.find((flag) => values[flag] !== undefined);
    if (stray) throw new UsageError(`--${stray} is not for forget-window: a window is learned per base URL and model`);
    return forgetLearnedWindows(
      {
        ...(values['base-url'] !== undefined ? { baseUrl: values['base-url'] } : {}),
        ...(values.model !== undefined ? { model: values.model } : {}),
        ...(values['data-dir'] !== undefined ? { dataDir: values['data-dir'] } : {}),
      },
      io,
    );
  }
  const forgetOnly = FORGET_FLAGS.find((flag) => values[flag] !== undefined);
  if (forgetOnly)
    throw new UsageError(
      `--${forgetOnly} is only for forget-window (home-agent models forget-window --${forgetOnly} …)`,
    );
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
