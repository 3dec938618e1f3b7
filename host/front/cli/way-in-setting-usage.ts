import type { WayInSetting } from '../../../devices/links/way-in-setting.ts';
import { BUILTIN_WAY_IN_SETTINGS } from '../../../devices/ways-in/builtin-way-in-settings.ts';
import type { SettingKey } from '../../contract/settings-table.ts';

const rows = Object.entries(BUILTIN_WAY_IN_SETTINGS) as [SettingKey, WayInSetting][];

/** The way-in settings that reach a way in's peer (set, the way in is configured): `devices scan` with one scans it. */
export const REACHING_SETTING_KEYS: readonly SettingKey[] = rows
  .filter(([, row]) => row.usage === 'required')
  .map(([key]) => key);

/** A way-in setting's flag with what it takes, for help (`--flag URL`). */
export function wayInSettingFlag(key: SettingKey): string {
  const row = rows.find(([candidate]) => candidate === key)?.[1];
  if (row === undefined) throw new Error(`${key} is not a way-in setting`);
  return `--${row.flag} ${row.valueName}`;
}

/** The flags that reach devices besides their ports, as a usage line shows them: `--flag URL [--flag VAR]`. */
export function wayInSettingsUsage(): string {
  return rows
    .filter(([, row]) => row.usage !== undefined)
    .map(([key, row]) => (row.usage === 'optional' ? `[${wayInSettingFlag(key)}]` : wayInSettingFlag(key)))
    .join(' ');
}

/** Help's example of those flags with their example values, and what scanning with them finds. */
export function wayInSettingsExample(): { flags: string; text: string } {
  const used = rows.filter(([, row]) => row.usage !== undefined);
  return {
    flags: used.map(([, row]) => `--${row.flag} ${row.example}`).join(' '),
    text: used.flatMap(([, row]) => (row.exampleText ? [row.exampleText] : [])).join(' '),
  };
}
