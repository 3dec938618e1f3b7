// `home-agent bridge --help`: its text alone, so help loads none of the command's code.
import { settingsTable, WAY_IN_SETTING_KEYS, type SettingKey } from '../../../contract/settings-table.ts';
import { DEVICE_AND_DATA_FLAG_HELP } from '../../command-line/common-flag-help.ts';
import type { CommandHelp } from '../../command-line/command-help.ts';
import { SETTING_FLAG_HELP } from '../../command-line/common-flag-help.ts';
import { WAY_OUT_HELP } from '../../../../devices/ways-in/builtin-way-out-help.ts';

/** The settings a bridge reads (where devices are reached besides their ports), with their flags from the settings table. */
/** The device flags a bridge takes, as ask's help words them. */
const deviceFlagHelp = DEVICE_AND_DATA_FLAG_HELP.filter((option) =>
  ['--sim', '--sim-latency-ms', '--device', '--data-dir'].some((flag) => option.flag.startsWith(flag)),
);

export const BRIDGE_SETTING_KEYS: readonly SettingKey[] = WAY_IN_SETTING_KEYS;

export const BRIDGE_HELP: CommandHelp = {
  name: 'bridge',
  summary: "offer this machine's devices to a Home Agent on another machine",
  usage: [
    `bridge ${WAY_OUT_HELP.usage} [--name NAME] [--sim] [--device PATH…] [--data-dir DIR]`,
    'bridge --pairing-code [--name NAME] [--data-dir DIR]',
  ],
  description: [
    'Runs on the small machine by the devices (a Raspberry Pi by the boiler): publishes each device it is',
    'given, prints one line per device ("ID KIND PATH", the path a host pairs) and a one-time',
    '"pairing code: CODE", then serves until stopped (Ctrl+C). A host pairs a device with the code',
    '(devices pair PATH … --code CODE); only a paired host is answered, and only for what it granted.',
    '--pairing-code prints a new code for the bridge of this data folder (the one before stops working).',
    'See docs/scale-out.md.',
  ].join('\n'),
  options: [
    // Each setting's flag as every command's help shows it: one placeholder per flag.
    ...SETTING_FLAG_HELP.filter((option) =>
      BRIDGE_SETTING_KEYS.some((key) => option.flag.startsWith(`--${settingsTable[key].flag} `)),
    ),
    {
      flag: '--name NAME',
      text: "The bridge's name: 1–32 lower-case letters, digits and -; its devices are NAME.ID (default: this machine's host name made to fit).",
    },
    { flag: '--pairing-code', text: 'Print a new one-time pairing code for this bridge and exit.' },
    ...deviceFlagHelp,
  ],
  examples: [
    {
      command: `home-agent bridge ${WAY_OUT_HELP.example.flags} --name cellar --device /dev/ttyUSB0`,
      text: `Offers the device on /dev/ttyUSB0 as cellar.ID ${WAY_OUT_HELP.example.text}.`,
    },
    { command: 'home-agent bridge --pairing-code --name cellar', text: 'A new pairing code for the bridge cellar.' },
  ],
};
