import { BUILTIN_PROFILE_NAMES } from '../../../../devices/ways-in/builtin-profile-formats.ts';
import type { CommandHelp, OptionHelp } from '../../command-line/command-help.ts';
import { BUILTIN_WAY_IN_HELP } from '../../../../devices/ways-in/builtin-way-in-help.ts';
import { settingsTable, WAY_IN_SETTING_KEYS } from '../../../contract/settings-table.ts';
import { wayInSettingFlag, wayInSettingsExample, wayInSettingsUsage } from '../way-in-setting-usage.ts';
import { STANDALONE_FLAG_HELP } from '../../command-line/one-home-help.ts';

/** `--FLAG URL [--FLAG VAR]`: how `devices scan|pair` reach devices behind a peer of a way in (a broker). */
const reachingUsage = wayInSettingsUsage();
const reachingExample = wayInSettingsExample();

/** The ways in that take options a person types, with what help says of them. */
const helpedWaysIn = BUILTIN_WAY_IN_HELP;

/** `--unit N`, `--baud B`, …: each way in's options as `devices pair` takes them. */
const wayInOptionHelp: OptionHelp[] = helpedWaysIn.flatMap((help) =>
  Object.entries(help.options).map(([key, option]) => ({
    flag: `--${key} ${option.value}`,
    text: `pair: ${option.text}`,
  })),
);

/** `home-agent devices --help` (the command itself is in devices-command.ts). */
export const DEVICES_HELP: CommandHelp = {
  name: 'devices',
  summary: 'find, pair, grant and forget the serial devices the agent may use',
  usage: [
    'devices scan [--path P]…',
    `devices scan ${reachingUsage}`,
    'devices pair PATH [--alias A] [--room R] [--profile NAME|FILE] [--yes]',
    `devices pair PATH ${reachingUsage} [--code CODE] [--alias A] [--yes]`,
    ...helpedWaysIn.map((help) => `devices pair PATH ${help.pairUsage} [--yes]`),
    'devices list [--json]',
    'devices grant ID (ACTION… | --all)',
    'devices revoke ID (ACTION… | --all)',
    'devices rename ID ALIAS',
    'devices room ID (ROOM | --none)',
    'devices pin ID ACTION (on | off)',
    'devices confirm ID [--yes]',
    'devices forget ID',
  ],
  description: [
    'Pairing asks the device who it is, shows its identity and tools, and stores it with no grants: the',
    'agent may use none of its actions until you grant them. What it declared is pinned (each action,',
    "its parameters, whether it asks you before each use, a profile file's content): a paired device",
    'whose identity changes, or that later declares otherwise, is not used until you confirm it again;',
    'one that only asks more applies at once. Pairing an id that is paired already replaces that',
    'pairing (its name, grants and standing approvals) once you say yes, or with --yes. PATH and a',
    'profile FILE are stored absolute. `scan` opens no port (opening one resets many Arduinos): it',
    'prints one line a port, PATH<TAB>SOURCE<TAB>VENDOR:PRODUCT<TAB>SERIAL, empty where unknown. `pair`',
    'opens the path you name, a pseudo-terminal too (socat, simavr); the window opens only serial ports and',
    'the ports of a running `home-agent sim`. A running host follows a paired device that comes back on',
    'another port when it can tell without opening one (its /dev/serial/by-id link, a simulator that',
    'announces it); `list` then says where it moved from. Each action takes --data-dir DIR (default: the',
    'app data folder). With a broker, `scan` prints the devices announced on it, one line each, and on',
    'stderr each announcement it does not offer (its name, source and why). While a host of the data folder',
    'runs (the window, npm start, serve), `confirm` and `pair` of a port it holds go through it: it asks the',
    'device, and pairs or trusts what you were shown (stderr names it); --standalone opens the port here.',
  ].join('\n'),
  options: [
    { flag: '--path P', text: 'scan: also look at this path (repeatable), besides the serial ports found.' },
    {
      flag: '--alias A',
      text: 'pair: a name people use for the device ("Kitchen lamp"): one line of at most 100 characters, no control characters (rename takes the same).',
    },
    {
      flag: '--room R',
      text: 'pair: the room it is in ("Kitchen"), by the rule of --alias; rooms match whatever their case (room takes the same).',
    },
    { flag: '--none', text: 'room: take the device out of its room.' },
    {
      flag: '--profile NAME|FILE',
      text: `pair: how to speak to a device that does not speak JSON (built in: ${BUILTIN_PROFILE_NAMES.join(', ')}).`,
    },
    ...wayInOptionHelp,
    ...WAY_IN_SETTING_KEYS.map((key) => ({
      flag: wayInSettingFlag(key),
      text: `scan, pair: ${settingsTable[key].help ?? settingsTable[key].label}`,
    })),
    {
      flag: '--code CODE',
      text: 'pair: the one-time pairing code a device behind the broker asks for (a bridge prints it when it starts); never stored.',
    },
    {
      flag: '--yes',
      text: 'pair, confirm: accept what is shown without asking (for scripts); pair: also replaces a pairing of the same id.',
    },
    { flag: '--all', text: 'grant, revoke: every action of the device.' },
    { flag: '--json', text: 'list: one JSON array.' },
    { flag: '--data-dir DIR', text: 'Where paired devices are kept.' },
    { ...STANDALONE_FLAG_HELP, text: `pair, confirm: ${STANDALONE_FLAG_HELP.text}` },
  ],
  examples: [
    { command: 'home-agent devices scan', text: 'The serial ports the system and running simulators know of.' },
    { command: 'home-agent devices pair /dev/ttyUSB0 --alias "Hall lamp"', text: 'Pair the device on /dev/ttyUSB0.' },
    {
      command: `home-agent devices scan ${reachingExample.flags}`,
      text: reachingExample.text,
    },
    { command: 'home-agent devices grant lamp-1 get set', text: 'Let the agent read and switch lamp-1.' },
    { command: 'home-agent devices revoke lamp-1 set', text: 'Take switching away again; reading stays.' },
  ],
};
