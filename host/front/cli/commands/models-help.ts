// `home-agent models --help`: its text alone, so help loads none of the command's code.
import { MODEL_PROVIDERS } from '../../../../core/models/provider-defaults.ts';
import { type CommandHelp } from '../command-help.ts';
import { DATA_DIR_OPTION_HELP } from '../common-flag-help.ts';

export const MODELS_HELP: CommandHelp = {
  name: 'models',
  summary: 'list the models a model server offers, or forget learned context windows',
  usage: [
    'models --provider openai|anthropic|gemini|ollama [--base-url URL] [--api-key-env VAR] [--json]',
    'models forget-window [--base-url URL] [--model M] [--data-dir DIR]',
  ],
  description: [
    'Asks the model server which models it offers and prints one id per line (a display name after a tab',
    'where the server gives one). Use an id with --model, or pick it in the Settings tab. The key comes',
    'from --api-key-env, else the provider’s usual variable (OPENAI_API_KEY, ANTHROPIC_API_KEY,',
    'GEMINI_API_KEY); it is never printed. Exit status: 0 listed, 1 the server failed (why on stderr),',
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
      text: 'Where the server answers (default: the provider’s usual address); forget-window: only its windows.',
    },
    { flag: '--api-key-env VAR', text: 'The environment variable that holds the key.' },
    { flag: '--json', text: 'Print one JSON array of {id, name?} instead.' },
    { flag: '--model M', text: 'forget-window: only the windows of this model.' },
    { ...DATA_DIR_OPTION_HELP, text: `forget-window: ${DATA_DIR_OPTION_HELP.text}` },
  ],
  examples: [
    { command: 'home-agent models --provider ollama', text: 'The models pulled into the local Ollama.' },
    {
      command: 'home-agent models --provider openai --base-url http://127.0.0.1:1234/v1',
      text: 'An OpenAI-compatible server such as LM Studio.',
    },
    { command: 'home-agent models forget-window', text: 'Forget every context window learned from a refusal.' },
    {
      command: 'home-agent models forget-window --base-url http://127.0.0.1:8080/v1 --model qwen2.5',
      text: 'Forget only the window learned of one model at one server.',
    },
  ],
};
