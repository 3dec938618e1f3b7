import { readSettingText, settingsTable, SETTING_KEYS, type Settings } from '../contract/settings-table.ts';
import { UsageError } from './usage-error.ts';

/** The values `parseArgs` gives (or a front end builds from its environment), keyed by flag name. */
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
