// `home-agent export --help`: its text alone, so help loads none of the command's code.
import type { CommandHelp } from '../../command-line/command-help.ts';
import { DATA_DIR_OPTION_HELP } from '../../command-line/common-flag-help.ts';

export const EXPORT_HELP: CommandHelp = {
  name: 'export',
  summary: 'write conversations with their calls, results and timings as JSON',
  usage: ['export [--conversation ID] [--format json] [--data-dir DIR]'],
  description: [
    'Writes the conversations of the data folder (or the one named) as one JSON document on stdout:',
    'each with its messages, tool calls, results, outcomes and timings. Messages and events that belong',
    'to no conversation, or to no turn of one (a store edited behind its back), and the events of calls',
    'no batch/start declares (a journal write that failed) are kept under "unplaced" and counted on stderr. Read-only: nothing is written or created. Exit status: 0 written,',
    '1 the store cannot be read or holds nothing of the conversation named, 2 a wrong command line.',
  ].join('\n'),
  options: [
    { flag: '--conversation ID', text: 'Only this conversation.' },
    { flag: '--format json', text: 'The format (json, the only one).' },
    DATA_DIR_OPTION_HELP,
  ],
  examples: [
    { command: 'home-agent export > home-agent.json', text: 'Every conversation, into a file.' },
    { command: 'home-agent export --conversation 3f2a… | jq .', text: 'One conversation, pretty-printed.' },
  ],
};
