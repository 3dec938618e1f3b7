import type { ParseArgsConfig } from 'node:util';
import { readSettingText, settingsTable, SETTING_KEYS, type Settings } from '../../contract/settings-table.ts';
import { UsageError } from './cli-io.ts';
import { readWayInOptions, wayInOptionKeys } from '../../../devices/links/read-way-in-options.ts';
import type { DeviceToAttach } from '../../devices/attach-devices.ts';
import { deviceWaysIn } from '../../devices/create-device-layer.ts';

/** A flag per setting (`--max-steps`), derived from the settings table. */
const settingFlagOptions = Object.fromEntries(
  SETTING_KEYS.map((key) => [settingsTable[key].flag, { type: 'string' as const }]),
) as Record<string, { type: 'string' }>;

/** Flags that `ask`, `serve` and `mcp` share: every setting, the data folder, the devices, the script, the MCP config. */
export const commonFlagOptions = {
  ...settingFlagOptions,
  script: { type: 'string' },
  'data-dir': { type: 'string' },
  sim: { type: 'boolean' },
  'sim-latency-ms': { type: 'string' },
  device: { type: 'string', multiple: true },
  'mcp-config': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

export interface CommonFlags {
  /** Settings given for this run; they win over the stored ones. */
  settings: Settings;
  /** The replies of the scripted model (`--script FILE`). */
  scriptFile?: string;
  dataDir?: string;
  sim: boolean;
  simLatencyMs?: number;
  /** `--device PATH[,profile=NAME|FILE][,k=v…]` (a way in's options, e.g. `unit=N`), options in any order. */
  devices: DeviceToAttach[];
  /** `--mcp-config FILE`: the MCP servers of this run, in place of the data folder's mcp.json. */
  mcpConfigFile?: string;
}

/** The values `parseArgs` gives (or the desktop app builds from its environment). */
export type FlagValues = Record<string, string | boolean | string[] | undefined>;

/**
 * Reads the settings named by flags (or any source keyed like them) through the settings table:
 * a bad value is a UsageError that names where it came from and what is wrong.
 */
export function readSettingFlags(
  values: FlagValues,
  nameOf: (flag: string) => string = (flag) => `--${flag}`,
): Settings {
  const settings: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const { flag } = settingsTable[key];
    const text = values[flag];
    if (typeof text !== 'string') continue;
    const read = readSettingText(key, text);
    if (!read.ok)
      throw new UsageError(
        `${nameOf(flag)}: ${read.issues.map((issue) => issue.message).join('; ')}${
          (settingsTable[key] as { quoteRefused?: false }).quoteRefused === false ? '' : ` (got '${text}')`
        }`,
      );
    settings[key] = read.value;
  }
  return settings as Settings;
}

/**
 * Settings from environment variables (`HOME_AGENT_MAX_STEPS=4`), as the desktop app reads them at
 * start; a bad value is a UsageError naming the variable.
 */
export function readSettingEnvironment(env: Record<string, string | undefined>): Settings {
  const values: FlagValues = {};
  const variableOf = new Map<string, string>();
  for (const key of SETTING_KEYS) {
    const spec = settingsTable[key];
    values[spec.flag] = env[spec.env];
    variableOf.set(spec.flag, spec.env);
  }
  return readSettingFlags(values, (flag) => variableOf.get(flag) ?? flag);
}

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
  if (typeof values['mcp-config'] === 'string') {
    if (values['mcp-config'].trim() === '') throw new UsageError('--mcp-config needs the path of an MCP config file');
    flags.mcpConfigFile = values['mcp-config'];
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
