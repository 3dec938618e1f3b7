import { checkSetting, SETTING_KEYS, settingsTable } from '../contract/settings-table.ts';
import { ApiError } from './api-error.ts';
import type { ApiHandlersOf } from './api-handlers.ts';
import type { HostParts } from './host-parts.ts';

/** The stored settings: read, and set one at a time (a refused value names its field and issues). */
export function settingsHandlers(parts: HostParts): ApiHandlersOf<'settings/get' | 'settings/set'> {
  const { settingsStore } = parts;
  return {
    'settings/get': () => ({
      settings: settingsStore.getAll(),
      fixed: SETTING_KEYS.filter((key) => parts.runSettings[key] !== undefined),
    }),
    'settings/set': (input) => {
      if (input.value === undefined || input.value === null) {
        settingsStore.unset(input.key);
        return { settings: settingsStore.getAll() };
      }
      const checked = checkSetting(input.key, input.value);
      if (!checked.ok) {
        const { label } = settingsTable[input.key];
        throw new ApiError(400, `${label}: ${checked.issues.map((issue) => issue.message).join('; ')}`, {
          field: input.key,
          issues: checked.issues,
        });
      }
      settingsStore.set(input.key, checked.value);
      return { settings: settingsStore.getAll() };
    },
  };
}
