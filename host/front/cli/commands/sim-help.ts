import { SIMULATED_KINDS } from '../../../../devices/simulator/device-catalog.ts';
import type { CommandHelp } from '../../command-line/command-help.ts';

/** `home-agent sim`'s usage line (the command itself is in sim-command.ts). */
export const SIM_USAGE = `home-agent sim [--latency-ms N] [--devices ${SIMULATED_KINDS.join(',')},...] [--dir DIR] [--ids ID,...]`;

/** `home-agent sim --help` (the command itself is in sim-command.ts). */
export const SIM_HELP: CommandHelp = {
  name: 'sim',
  summary: 'run simulated devices on pseudo-terminals, as real boards would be',
  usage: [`sim [--latency-ms N] [--devices ${SIMULATED_KINDS.join(',')},…] [--dir DIR] [--ids ID,…]`],
  description: [
    'Starts simulated devices behind socat pseudo-terminals and prints one line per device,',
    '"<id> <kind> <path>", then "<id> state <json>" after every call it answers, until stopped (Ctrl+C).',
    'Ids are <kind>-<n> (lamp-1, lamp-2, …), passing over ids a running Home Agent (npm start, serve, the',
    'window, ask) or another sim already has, so its boards can be paired beside them; stderr says which it',
    'chose and why. Started again the same way, it keeps its ids and paths.',
    'Attach them to a host with --device PATH (a relay board with --device PATH,profile=at-relay-4),',
    'or pair them with home-agent devices pair PATH. Needs socat (apt-get install socat).',
  ].join('\n'),
  options: [
    { flag: '--latency-ms N', text: 'How long each device takes to answer a call (default 250).' },
    {
      flag: '--devices KIND,…',
      text: `Which devices, in order (default lamp,lamp,thermometer,display); kinds: ${SIMULATED_KINDS.join(', ')}.`,
    },
    {
      flag: '--dir DIR',
      text: 'Put the ports in DIR (default: a folder of its own in your private simulator index, $XDG_RUNTIME_DIR/home-agent-sims or home-agent-sims-<uid> in the temp folder, the same each time; another when a running sim holds it).',
    },
    {
      flag: '--ids ID,…',
      text: 'Give the devices these ids instead, one per device in the order of --devices: a board that comes back at the same path as another device.',
    },
  ],
  examples: [
    { command: 'home-agent sim', text: 'Two lamps, a thermometer and a display.' },
    {
      command: 'home-agent sim --devices lamp,relay',
      text: 'A lamp and an AT relay board (pair it with --profile at-relay-4), beside npm start’s home.',
    },
    {
      command: 'home-agent sim --latency-ms 3000 --devices lamp,lamp',
      text: 'Two slow lamps: Stop during a call to see an unknown outcome and the state read afterwards.',
    },
    {
      command: 'home-agent sim --devices lamp --dir /tmp/sims --ids lamp-9',
      text: 'The lamp that was at /tmp/sims/lamp-1 comes back as lamp-9 (the app asks whether to trust it).',
    },
  ],
};
