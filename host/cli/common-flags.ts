import type { ParseArgsConfig } from 'node:util';
import { readSettingText, settingsTable, SETTING_KEYS, type Settings } from '../contract/settings-table.ts';
import { UsageError } from './cli-io.ts';

/** A flag per setting (`--max-steps`), derived from the settings table. */
const settingFlagOptions = Object.fromEntries(
  SETTING_KEYS.map((key) => [settingsTable[key].flag, { type: 'string' as const }]),
) as Record<string, { type: 'string' }>;

/** Flags that `ask` and `serve` share: every setting, the data folder, the devices, the script. */
export const commonFlagOptions = {
  ...settingFlagOptions,
  script: { type: 'string' },
  'data-dir': { type: 'string' },
  sim: { type: 'boolean' },
  'sim-latency-ms': { type: 'string' },
  device: { type: 'string', multiple: true },
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
  /** `--device PATH` or `--device PATH,profile=NAME` for devices that speak plain lines. */
  devices: { path: string; profile?: string }[];
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
      throw new UsageError(`${nameOf(flag)}: ${read.issues.map((issue) => issue.message).join('; ')} (got '${text}')`);
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
  const latency = integerFlag('sim-latency-ms', values['sim-latency-ms'] as string | undefined, 0);
  if (latency !== undefined) flags.simLatencyMs = latency;
  return flags;
}

function readDeviceFlag(value: string): { path: string; profile?: string } {
  const match = /^(.+),profile=([^,]+)$/.exec(value);
  if (!match) return { path: value };
  return { path: match[1] as string, profile: match[2] as string };
}
