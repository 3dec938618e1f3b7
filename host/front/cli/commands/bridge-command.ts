import { parseArgs } from 'node:util';
import { hostname } from 'node:os';
import { settingsTable, settingValue, type Settings } from '../../../contract/settings-table.ts';
import { readCommonFlags } from '../../command-line/common-flags.ts';
import { stderrLog, UsageError, type CliIo } from '../../command-line/cli-io.ts';
import { createDataDir, resolveDataDir } from '../../../config/data-dir.ts';
import { attachCommandLineDevices } from '../../../devices/attach-devices.ts';
import { createDeviceRegistry } from '../../../devices/create-device-layer.ts';
import { configuredWayOut, wayOutNames } from '../../../../devices/ways-in/builtin-ways-out.ts';
import { WAY_OUT_HELP } from '../../../../devices/ways-in/builtin-way-out-help.ts';
import type { WayOut } from '../../../../devices/registry/way-out.ts';
import { BRIDGE_SETTING_KEYS } from './bridge-help.ts';

const settingFlags = Object.fromEntries(
  BRIDGE_SETTING_KEYS.map((key) => [settingsTable[key].flag, { type: 'string' as const }]),
) as Record<string, { type: 'string' }>;

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
  for (const key of BRIDGE_SETTING_KEYS) settings[key] = settingValue(given, key);
  let way: WayOut | undefined;
  try {
    way = configuredWayOut(settings);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (way === undefined) throw new UsageError(`bridge needs ${WAY_OUT_HELP.missing}`);
  return way;
}
