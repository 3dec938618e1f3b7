import type { StateCreator } from 'zustand/vanilla';
import { ApiCallError, type ApiClient } from '../api/api-client.ts';
import { messageOf } from './message-of.ts';
import type { AppState } from './create-app-store.ts';
import type { LoadStatus } from './load-status.ts';
import { parseSettingText, settingErrorText, settingFields, type SettingKey } from './setting-fields.ts';

/** The outcome of the last Save, for the line under the form. */
export interface SettingsSaveResult {
  saved: SettingKey[];
  failed: SettingKey[];
}

/**
 * The host's stored settings, the person's unsaved edits (a field has a draft only once edited),
 * and per field the reason the host (or the form) refused it.
 */
export interface SettingsSlice {
  settings: Record<string, unknown>;
  settingsStatus: LoadStatus;
  settingsError: string | null;
  settingDrafts: Partial<Record<SettingKey, string>>;
  settingErrors: Partial<Record<SettingKey, string>>;
  settingsSaving: boolean;
  lastSave: SettingsSaveResult | null;
  /** Re-reads the stored settings; drafts stay as they are. */
  refreshSettings(): Promise<void>;
  editSetting(key: SettingKey, text: string): void;
  /** Forgets every draft and error: the form shows the stored values again. */
  discardSettingDrafts(): void;
  /** Sends every drafted field, one request each; a refused field keeps its draft and shows why. */
  saveSettings(): Promise<SettingsSaveResult>;
}

const kindOf = new Map(settingFields.map((field) => [field.key, field.kind]));

/** The slice, with the API its actions call. */
export function createSettingsSlice(api: ApiClient): StateCreator<AppState, [], [], SettingsSlice> {
  let latest = 0;
  return (set, get) => {
    async function saveOne(key: SettingKey, text: string): Promise<boolean> {
      const parsed = parseSettingText(kindOf.get(key) ?? 'text', text);
      if (!parsed.ok) {
        setError(key, parsed.error);
        return false;
      }
      try {
        const { settings } = await api.call('settings/set', { key, value: parsed.value });
        // Saved: the stored value is shown again, and a new read wins over any older one in flight.
        latest += 1;
        set((state) => ({
          settings,
          settingDrafts: without(state.settingDrafts, key),
          settingErrors: without(state.settingErrors, key),
        }));
        return true;
      } catch (error) {
        setError(key, settingErrorText(error instanceof ApiCallError ? error : { message: messageOf(error) }));
        return false;
      }
    }

    function setError(key: SettingKey, message: string): void {
      set((state) => ({ settingErrors: { ...state.settingErrors, [key]: message } }));
    }

    return {
      settings: {},
      settingsStatus: 'idle',
      settingsError: null,
      settingDrafts: {},
      settingErrors: {},
      settingsSaving: false,
      lastSave: null,
      async refreshSettings() {
        const request = ++latest;
        set({ settingsStatus: 'loading' });
        try {
          const { settings } = await api.call('settings/get', {});
          if (request === latest) set({ settings, settingsStatus: 'loaded', settingsError: null });
        } catch (error) {
          if (request === latest)
            set({ settingsStatus: 'failed', settingsError: `Could not read the settings: ${messageOf(error)}` });
        }
      },
      editSetting(key, text) {
        set((state) => ({ settingDrafts: { ...state.settingDrafts, [key]: text }, lastSave: null }));
      },
      discardSettingDrafts() {
        set({ settingDrafts: {}, settingErrors: {}, lastSave: null });
      },
      async saveSettings() {
        const drafts = get().settingDrafts;
        const result: SettingsSaveResult = { saved: [], failed: [] };
        set({ settingsSaving: true, lastSave: null });
        // In the form's order, one at a time: each answer carries all settings, so the last one is current.
        for (const field of settingFields) {
          const text = drafts[field.key];
          if (text === undefined) continue;
          const outcome = await saveOne(field.key, text);
          result[outcome ? 'saved' : 'failed'].push(field.key);
        }
        set({ settingsSaving: false, lastSave: result });
        return result;
      },
    };
  };
}

function without<T extends object>(record: T, key: keyof T): T {
  const copy = { ...record };
  delete copy[key];
  return copy;
}
