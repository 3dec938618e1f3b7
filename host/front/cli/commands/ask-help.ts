// `home-agent ask --help`: its text alone, so help loads none of the command's code.
import type { CommandHelp } from '../../command-line/command-help.ts';
import { DEVICE_AND_DATA_FLAG_HELP, SETTING_FLAG_HELP } from '../../command-line/common-flag-help.ts';
import { PROVIDER_EXAMPLES } from '../../../../core/models/provider-manifests.ts';
import { ONE_HOME_TEXT, STANDALONE_FLAG_HELP } from '../../command-line/one-home-help.ts';

export const ASK_HELP: CommandHelp = {
  name: 'ask',
  summary: 'run one turn of the agent and show what it did',
  usage: ['ask [options] "<request>"'],
  description: [
    'Sends one request to the agent and runs the turn: the model replies, its tool calls run as',
    'batches, and the output shows each call (1-based, in the order the model declared them) with its',
    'arguments and outcome — done, failed, not sent (the device did not act) or unknown (no answer',
    'came: it may have acted). On a terminal each running call has a live line. After Ctrl+C the',
    'devices that may have acted are read again. The last line on stderr is the conversation id, to',
    'continue with --conversation. Exit status: 0 when the turn ends done, 1 otherwise, 2 for a wrong',
    'command line. With --json, stdout carries one event per line (a stable contract) instead.',
    ONE_HOME_TEXT,
    'Through it, --provider, --model, --base-url, --api-key-env, --script and --approve-all hold for',
    'this turn only; flags that shape a home (--sim, --device, settings) are refused: use --standalone.',
  ].join('\n'),
  options: [
    ...SETTING_FLAG_HELP,
    ...DEVICE_AND_DATA_FLAG_HELP,
    {
      flag: '--conversation ID',
      text: 'Continue this conversation (the id the last run printed); default: a new one.',
    },
    {
      flag: '--approve-all',
      text: 'Allow calls that need a person’s approval; without it they are denied (nobody can be asked from a script).',
    },
    { flag: '--json', text: 'Print every event as one JSON object per line (the stable contract for scripts).' },
    STANDALONE_FLAG_HELP,
  ],
  examples: [
    PROVIDER_EXAMPLES.askWithoutServer,
    {
      command: 'home-agent ask --sim --sim-latency-ms 3000 "turn on all lamps"',
      text: 'Slow devices: press Ctrl+C while the calls run to see outcome unknown and the state read afterwards.',
    },
    {
      command: 'home-agent ask --device /dev/ttyUSB0,profile=at-relay-4 --approve-all "switch relay 1 on"',
      text: 'A relay board on a real serial port, for this run only.',
    },
    PROVIDER_EXAMPLES.askWithServer,
    { command: 'home-agent ask --conversation 3f2a… "and the display?"', text: 'Continue an earlier conversation.' },
    { command: 'home-agent ask --sim --json "status" | jq .type', text: 'The events as JSON Lines.' },
  ],
};
