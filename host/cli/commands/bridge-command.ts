import { parseArgs } from 'node:util';
import { hostname } from 'node:os';
import { settingsTable, WAY_IN_SETTING_KEYS, type SettingKey, type Settings } from '../../contract/settings-table.ts';
import { readCommonFlags } from '../common-flags.ts';
import { stderrLog, UsageError, type CliIo } from '../cli-io.ts';
import type { CommandHelp } from '../command-help.ts';
import { DEVICE_AND_DATA_FLAG_HELP, SETTING_FLAG_HELP } from '../common-flag-help.ts';
import { createDataDir, resolveDataDir } from '../../config/data-dir.ts';
import { attachCommandLineDevices } from '../../devices/attach-devices.ts';
import { createDeviceRegistry } from '../../devices/create-device-layer.ts';
import { configuredWayOut, WAY_OUT_HELP, wayOutNames } from '../../../devices/ways-in/builtin-ways-out.ts';
import type { WayOut } from '../../../devices/links/way-out.ts';

/** The settings a bridge reads (where devices are reached besides their ports), with their flags from the settings table. */
const BRIDGE_SETTING_KEYS: readonly SettingKey[] = WAY_IN_SETTING_KEYS;

const settingFlags = Object.fromEntries(
  BRIDGE_SETTING_KEYS.map((key) => [settingsTable[key].flag, { type: 'string' as const }]),
) as Record<string, { type: 'string' }>;

const deviceFlagHelp = DEVICE_AND_DATA_FLAG_HELP.filter((option) =>
  ['--sim', '--sim-latency-ms', '--device', '--data-dir'].some((flag) => option.flag.startsWith(flag)),
);

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

/**
 * `home-agent bridge`: offers the devices named on its command line (`--sim`, `--device`) through the
 * way out its settings configure, printing `ID KIND PATH` per device and `pairing code: CODE`, until
 * the signal stops it. `--pairing-code` prints a new code and exits. Exit 0 after a clean stop, 1
 * when its peer cannot be reached, 2 for a wrong command line.
 */
export async function runBridgeCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...settingFlags,
      name: { type: 'string' },
      'pairing-code': { type: 'boolean' },
      sim: { type: 'boolean' },
      'sim-latency-ms': { type: 'string' },
      device: { type: 'string', multiple: true },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  const flags = readCommonFlags(values);
  const names = wayOutNames();
  const name = values.name ?? names.defaultName(hostname());
  const problem = names.nameProblem(name);
  if (problem !== undefined) throw new UsageError(`--name ${name}: ${problem}`);
  const dataDir = resolveDataDir(flags.dataDir);
  if (values['pairing-code']) {
    createDataDir(dataDir);
    io.stdout.write(`pairing code: ${names.newPairingCode({ stateFolder: dataDir, name })}\n`);
    return 0;
  }
  const way = readWayOut(flags.settings);
  if (!flags.sim && flags.devices.length === 0)
    throw new UsageError('nothing to offer: give --sim, or --device PATH for each device');
  if (io.signal.aborted) return 0;
  createDataDir(dataDir);
  const log = stderrLog(io);
  const registry = createDeviceRegistry();
  const closeDevices = await attachCommandLineDevices(registry, {
    sim: flags.sim,
    devices: flags.devices,
    log,
    signal: io.signal,
    ...(flags.simLatencyMs !== undefined ? { simLatencyMs: flags.simLatencyMs } : {}),
  });
  try {
    const code = names.newPairingCode({ stateFolder: dataDir, name });
    let open;
    try {
      open = await way.open({ registry, name, stateFolder: dataDir, log, signal: io.signal });
    } catch (error) {
      if (io.signal.aborted) return 0;
      log(`cannot offer the devices through ${way.label}: ${(error as Error).message}`);
      return 1;
    }
    for (const device of open.devices()) io.stdout.write(`${device.id} ${device.kind} ${device.path}\n`);
    io.stdout.write(`pairing code: ${code}\n`);
    log(`offering ${open.devices().length} device(s) through ${way.label} as ${name}; stop with Ctrl+C`);
    await new Promise<void>((resolve) => {
      if (io.signal.aborted) resolve();
      else io.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await open.close();
    return 0;
  } finally {
    await registry.dispose();
    await closeDevices();
  }
}

/** The way out the settings configure, defaults filled in from the settings table; a UsageError when none is or a value is wrong. */
function readWayOut(given: Settings): WayOut {
  const settings: Record<string, unknown> = {};
  for (const key of BRIDGE_SETTING_KEYS) settings[key] = given[key] ?? settingsTable[key].default;
  let way: WayOut | undefined;
  try {
    way = configuredWayOut(settings);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (way === undefined) throw new UsageError(`bridge needs ${WAY_OUT_HELP.missing}`);
  return way;
}
