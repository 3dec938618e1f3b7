import { SETTING_KEYS, type Settings } from '../contract/settings-table.ts';

/**
 * The settings a run uses: this run's overrides (flags, environment) over the stored settings.
 * A key absent from both stays absent — an omitted `toolOrder` never becomes `[]` (seed 000).
 */
export function mergeSettings(stored: Settings, overrides: Settings): Settings {
  const merged: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const value = overrides[key] ?? stored[key];
    if (value !== undefined) merged[key] = Array.isArray(value) ? [...value] : value;
  }
  return merged as Settings;
}
