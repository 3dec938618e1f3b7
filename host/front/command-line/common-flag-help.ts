import { SETTING_KEYS, settingsTable, type SettingKey } from '../../contract/settings-table.ts';
import { TOOL_ORDER_REST } from '../../../core/tools/order-tools.ts';
import type { OptionHelp } from './command-help.ts';
import { BUILTIN_PROFILE_NAMES } from '../../../devices/ways-in/builtin-profile-formats.ts';
import { BUILTIN_WAY_IN_HELP } from '../../../devices/ways-in/builtin-way-in-help.ts';
import { BUILTIN_PLUGIN_FLAGS } from '../../plugins/builtin/builtin-plugin-run-options.ts';

/** The ways in that take options a person types, with what help says of them. */
const helpedWaysIn = BUILTIN_WAY_IN_HELP;

/** What a flag takes where the form's help does not fit it (the form edits tool order one name a line; the flag takes JSON). */
const FLAG_HELP: Partial<Record<SettingKey, string>> = {
  toolOrder: `a JSON list of tool names, e.g. '["lamp__set","${TOOL_ORDER_REST}"]'. ${TOOL_ORDER_REST} must appear exactly once: unlisted tools go there, alphabetically.`,
};

/** Help for the flag of every setting, from the settings table (its flag, label and help). */
export const SETTING_FLAG_HELP: readonly OptionHelp[] = SETTING_KEYS.map((key) => {
  const spec = settingsTable[key];
  const value =
    spec.valueName ??
    (spec.input === 'select' && spec.options ? spec.options.join('|') : spec.input === 'integer' ? 'N' : 'TEXT');
  const help = FLAG_HELP[key] ?? spec.help;
  return { flag: `--${spec.flag} ${value}`, text: help ? `${spec.label}: ${help}` : spec.label };
});

/** Help for the flags `ask` and `serve` share besides the settings: devices, data, the plugins' flags, the script. */
export const DEVICE_AND_DATA_FLAG_HELP: readonly OptionHelp[] = [
  { flag: '--sim', text: 'Attach simulated devices: lamp-1, lamp-2, thermometer-1, display-1 (all actions granted).' },
  { flag: '--sim-latency-ms N', text: 'How long each simulated device takes to answer (default 250).' },
  {
    flag: `--device PATH[,profile=NAME|FILE]${helpedWaysIn
      .flatMap((help) => Object.entries(help.options).map(([key, option]) => `[,${key}=${option.value}]`))
      .join('')}`,
    text: `Attach the device on a serial port for this run; options after the path in any order: profile for devices that do not speak the Home Agent protocol (built in: ${BUILTIN_PROFILE_NAMES.join(', ')})${helpedWaysIn.map((help) => `, ${help.summary}`).join('')}. Repeat for more devices.`,
  },
  {
    flag: '--data-dir DIR',
    text: 'Where conversations, settings and paired devices are kept (default: the app data folder).',
  },
  ...BUILTIN_PLUGIN_FLAGS.map((flag) => flag.help),
  {
    flag: '--script FILE',
    text: 'The replies of --provider scripted: a JSON file {"replies":[…]} (see README, "Scripted model").',
  },
];

/** `--data-dir DIR` of the commands that read or write the store directly. */
export const DATA_DIR_OPTION_HELP: OptionHelp = {
  flag: '--data-dir DIR',
  text: 'The data folder (default: $HOME_AGENT_DATA_DIR, else the usual one).',
};
