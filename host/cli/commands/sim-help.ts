import { SIMULATED_KINDS } from '../../../devices/simulator/device-catalog.ts';
import type { CommandHelp } from '../command-help.ts';

/** `home-agent sim --help` (the command itself is in sim-command.ts). */
export const SIM_HELP: CommandHelp = {
  name: 'sim',
  summary: 'run simulated devices on pseudo-terminals, as real boards would be',
  usage: [`sim [--latency-ms N] [--devices ${SIMULATED_KINDS.join(',')},…]`],
  description: [
    'Starts simulated devices behind socat pseudo-terminals and prints one line per device,',
    '"<id> <kind> <path>", then "<id> state <json>" after every call it answers, until stopped (Ctrl+C).',
    'Attach them to a host with --device PATH (a relay board with --device PATH,profile=at-relay-4),',
    'or pair them with home-agent devices pair PATH. Needs socat (apt-get install socat).',
  ].join('\n'),
  options: [
    { flag: '--latency-ms N', text: 'How long each device takes to answer a call (default 250).' },
    {
      flag: '--devices KIND,…',
      text: `Which devices, in order (default lamp,lamp,thermometer,display); kinds: ${SIMULATED_KINDS.join(', ')}.`,
    },
  ],
  examples: [
    { command: 'home-agent sim', text: 'Two lamps, a thermometer and a display.' },
    {
      command: 'home-agent sim --latency-ms 3000 --devices lamp,lamp',
      text: 'Two slow lamps: Stop during a call to see an unknown outcome and the state read afterwards.',
    },
  ],
};
