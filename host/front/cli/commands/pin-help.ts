// `home-agent pin --help`: its text alone, so help loads none of the command's code.
import type { CommandHelp } from '../../command-line/command-help.ts';
import { DATA_DIR_OPTION_HELP } from '../../command-line/common-flag-help.ts';

export const PIN_USAGE = 'home-agent pin reset [--data-dir DIR]';

export const PIN_HELP: CommandHelp = {
  name: 'pin',
  summary: 'reset a forgotten approval PIN, at the machine',
  usage: ['pin reset [--data-dir DIR]'],
  description: [
    'The approval PIN (set in Settings) is asked before calls that must not happen by mistake: locks,',
    'doors, garages, and the actions marked with `home-agent devices pin ID ACTION on`. It is changed or',
    'removed in Settings given the current PIN; a forgotten one is removed here, on the machine that',
    'keeps the data folder, never through the window or the API. `pin reset` removes the PIN and ends a',
    'lock after wrong PINs; calls that need the PIN are refused until a new one is set in Settings.',
    'Exit status: 0 when done (also when no PIN was set), 1 when the store cannot be written, 2 a wrong command line.',
  ].join('\n'),
  options: [DATA_DIR_OPTION_HELP],
  examples: [{ command: 'home-agent pin reset', text: 'Forget the approval PIN of this machine’s data folder.' }],
};
