import { UsageError } from './cli-io.ts';
import { readWayInOptions, wayInOptionKeys } from '../../../devices/links/read-way-in-options.ts';
import type { DeviceToAttach } from '../../devices/attach-devices.ts';
import { deviceWaysIn } from '../../devices/create-device-layer.ts';
import { readSettingFlags, type FlagValues } from '../../config/read-setting-values.ts';
import { BUILTIN_PLUGIN_FLAGS } from '../../plugins/builtin/builtin-plugin-run-options.ts';
import type { HostRunConfig } from '../../app/start-host.ts';

export { commonFlagOptions, pluginFlagOptions } from './common-flag-options.ts';

/** What the shared flags ask of the host: the services' own run config. */
export type CommonFlags = HostRunConfig;

function integerFlag(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min)
    throw new UsageError(`--${name} must be a whole number ≥ ${min}, got '${value}'`);
  return number;
}

/** Validates the shared flags; a bad value is a UsageError that names the flag. */
export function readCommonFlags(values: FlagValues): CommonFlags {
  const flags: CommonFlags = {
    settings: readSettingFlags(values),
    sim: values.sim === true,
    devices: ((values.device as string[] | undefined) ?? []).map(readDeviceFlag),
  };
  if (typeof values.script === 'string') {
    if (values.script.trim() === '') throw new UsageError('--script needs the path of a JSON file of replies');
    flags.scriptFile = values.script;
  }
  if (typeof values['data-dir'] === 'string') flags.dataDir = values['data-dir'];
  for (const flag of BUILTIN_PLUGIN_FLAGS) {
    const value = values[flag.name];
    if (typeof value !== 'string') continue;
    if (value.trim() === '') throw new UsageError(flag.blank);
    flags.pluginOptions = { ...flags.pluginOptions, ...flag.read(value) };
  }
  const latency = integerFlag('sim-latency-ms', values['sim-latency-ms'] as string | undefined, 0);
  if (latency !== undefined) flags.simLatencyMs = latency;
  return flags;
}

/**
 * `PATH,k=v,…`: options come last, in any order (`profile`, and the options of a way in, each
 * checked by that way in's schema); everything before them is the path, commas included.
 */
function readDeviceFlag(value: string): DeviceToAttach {
  const waysIn = deviceWaysIn();
  const keys = wayInOptionKeys(waysIn);
  const parts = value.split(',');
  const options = new Map<string, string>();
  while (parts.length > 1 && /^[a-z]+=/.test(parts[parts.length - 1]!)) {
    const part = parts.pop()!;
    const equals = part.indexOf('=');
    const key = part.slice(0, equals);
    const text = part.slice(equals + 1);
    if (!keys.includes(key))
      throw new UsageError(`--device ${value}: unknown option '${key}' (options: ${keys.join(', ')})`);
    if (options.has(key)) throw new UsageError(`--device ${value}: '${key}' is given twice`);
    if (text === '') throw new UsageError(`--device ${value}: '${key}' has no value`);
    options.set(key, text);
  }
  const path = parts.join(',');
  if (path === '') throw new UsageError(`--device ${value}: the port path is missing (--device /dev/ttyUSB0,…)`);
  const device: DeviceToAttach = { path };
  const profile = options.get('profile');
  options.delete('profile');
  if (profile !== undefined) device.profile = profile;
  try {
    const read = readWayInOptions(waysIn, { profile, options: Object.fromEntries(options) });
    if (Object.keys(read).length > 0) device.options = read;
  } catch (error) {
    throw new UsageError(`--device ${value}: ${(error as Error).message}`);
  }
  return device;
}
