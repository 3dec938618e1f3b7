// `home-agent models --help`: its text alone, so help loads none of the command's code.
import { DEFAULT_API_KEY_ENV, MODEL_PROVIDERS } from '../../../../core/models/provider-defaults.ts';
import { PROVIDER_EXAMPLES } from '../../../../core/models/provider-manifests.ts';
import { type CommandHelp } from '../../command-line/command-help.ts';
import { DATA_DIR_OPTION_HELP } from '../../command-line/common-flag-help.ts';
import { settingsTable } from '../../../contract/settings-table.ts';

/** Each provider's usual key variable (the description breaks its line after the second). */
const KEY_VARIABLES = MODEL_PROVIDERS.flatMap((provider) => DEFAULT_API_KEY_ENV[provider] ?? []);

export const MODELS_HELP: CommandHelp = {
  name: 'models',
  summary: 'list the models a model server offers, or forget learned context windows',
  usage: [
    `models --provider ${MODEL_PROVIDERS.join('|')} [--base-url URL] [--api-key-env VAR] [--json]`,
    'models forget-window [--base-url URL] [--model M] [--data-dir DIR]',
  ],
  description: [
    'Asks the model server which models it offers and prints one id per line (a display name after a tab',
    'where the server gives one). Use an id with --model, or pick it in the Settings tab. The key comes',
    `from --api-key-env, else the provider’s usual variable (${KEY_VARIABLES.slice(0, 2).join(', ')},`,
    `${KEY_VARIABLES.slice(2).join(', ')}); it is never printed. Exit status: 0 listed, 1 the server failed (why on stderr),`,
    '2 a wrong command line.',
    '',
    '`forget-window` forgets the context windows the data folder learned from servers’ refusals: all of',
    'them, or those of --base-url and --model. It prints one line each (base URL, model, window, tab',
    'separated); the next turn finds the window again. It needs no --provider. Exit status: 0 (also',
    'when none matched, as stderr says), 1 the store failed, 2 a wrong command line.',
  ].join('\n'),
  options: [
    { flag: '--provider P', text: `The server's wire format: ${MODEL_PROVIDERS.join(', ')}.` },
    {
      flag: '--base-url URL',
      text: `Where the server answers (default: ${settingsTable.baseUrl.defaultFrom}); forget-window: only its windows.`,
    },
    { flag: '--api-key-env VAR', text: 'The environment variable that holds the key.' },
    { flag: '--json', text: 'Print one JSON array of {id, name?} instead.' },
    { flag: '--model M', text: 'forget-window: only the windows of this model.' },
    { ...DATA_DIR_OPTION_HELP, text: `forget-window: ${DATA_DIR_OPTION_HELP.text}` },
  ],
  examples: [
    ...PROVIDER_EXAMPLES.models,
    { command: 'home-agent models forget-window', text: 'Forget every context window learned from a refusal.' },
    {
      command: 'home-agent models forget-window --base-url http://127.0.0.1:8080/v1 --model qwen2.5',
      text: 'Forget only the window learned of one model at one server.',
    },
  ],
};
