// `home-agent verify --help`: its text alone, so help loads none of the command's code.
import type { CommandHelp } from '../../command-line/command-help.ts';
import { DATA_DIR_OPTION_HELP } from '../../command-line/common-flag-help.ts';

export const VERIFY_HELP: CommandHelp = {
  name: 'verify',
  summary: 'check the store: integrity, foreign keys, the journal, answered calls, rebuilt request headers',
  usage: ['verify [--data-dir DIR] [--json]'],
  description: [
    'Reads the data folder’s store without writing to it (nothing is created beside it): SQLite’s',
    'integrity and foreign key checks, every turn in the journal started and closed, every event placed',
    'in a conversation and a turn, every call that started declared by its batch/start, every message',
    'recorded by the journal (answers the start-up repair wrote count as recorded), every tool call',
    'answered once right after its message, and every step’s request header rebuilt from the system',
    'prompt and tool declarations it stored (steps recorded before that are counted unverifiable, not',
    'failed). Exit status: 0 when everything holds, 1 otherwise or when the store cannot be read, 2 a',
    'wrong command line.',
  ].join('\n'),
  options: [DATA_DIR_OPTION_HELP, { flag: '--json', text: 'Print the report as one JSON object.' }],
  examples: [
    { command: 'home-agent verify', text: 'Check this machine’s store.' },
    { command: 'home-agent verify --data-dir backup --json', text: 'Check a copy, as JSON for a script.' },
  ],
};
