import type { StateCreator } from 'zustand/vanilla';
import type { ApiInput, ModelInfoSummary } from '../../host/contract/api-contract.ts';
import { MODEL_SETTING_KEYS, type ModelSettingKey } from '../../host/contract/settings-table.ts';
import { ApiCallError, type ApiClient } from '../api/api-client.ts';
import { messageOf } from './message-of.ts';
import type { AppState } from './create-app-store.ts';
import type { LoadStatus } from './load-status.ts';
import { newestWins } from './newest-wins.ts';
import {
  formatSettingValue,
  parseSettingText,
  settingErrorText,
  settingFields,
  type SettingKey,
} from './setting-fields.ts';

/** The models the server offers, as the model picker shows them. */
export interface ModelChoices {
  status: LoadStatus;
  models: ModelInfoSummary[];
  /** Why they could not be listed. */
  message?: string;
}

/** The last "Test connection": running, or what it found. */
export type ConnectionTest = { phase: 'testing' } | { phase: 'done'; ok: boolean; message: string };

/** The last "Forget learned windows": running, or what it did. */
export type WindowsForgetting = { phase: 'forgetting' } | { phase: 'done'; ok: boolean; message: string };

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
  /** Settings this run sets on its command line or environment: a stored value waits until a run without them. */
  fixedSettings: SettingKey[];
  modelChoices: ModelChoices;
  connectionTest: ConnectionTest | null;
  windowsForgetting: WindowsForgetting | null;
  /** Forgets every context window learned from a server's refusal (the next turn finds each again). */
  forgetLearnedWindows(): Promise<void>;
  /** Asks the server which models it offers, for the model fields as the form shows them. */
  loadModelChoices(): Promise<void>;
  /** Tries the model fields as the form shows them (drafts included) against the server. */
  testConnection(): Promise<void>;
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
  const reads = newestWins();
  const modelLookUps = newestWins();
  const connectionTests = newestWins();
  return (set, get) => {
    async function saveOne(key: SettingKey, text: string): Promise<boolean> {
      const parsed = parseSettingText(kindOf.get(key) ?? 'text', text);
      if (!parsed.ok) {
        setError(key, parsed.error);
        return false;
      }
      try {
        const { settings } = await api.call('settings/set', { key, value: parsed.value });
        // Saved: the stored value is shown again, and wins over any older read in flight.
        reads.supersede();
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
      fixedSettings: [],
      modelChoices: { status: 'idle', models: [] },
      connectionTest: null,
      windowsForgetting: null,
      async forgetLearnedWindows() {
        set({ windowsForgetting: { phase: 'forgetting' } });
        try {
          const { message } = await api.call('models/forget-windows', {});
          set({ windowsForgetting: { phase: 'done', ok: true, message } });
        } catch (error) {
          set({
            windowsForgetting: { phase: 'done', ok: false, message: `Could not forget them: ${messageOf(error)}` },
          });
        }
      },
      async loadModelChoices() {
        set((state) => ({ modelChoices: { ...state.modelChoices, status: 'loading' } }));
        await modelLookUps.run({
          request: () => api.call('models/list', modelFields(get())),
          onAnswer: (answer) =>
            set({
              modelChoices: answer.ok
                ? { status: 'loaded', models: answer.models }
                : { status: 'failed', models: [], message: answer.message },
            }),
          onError: (error) =>
            set({
              modelChoices: { status: 'failed', models: [], message: settingErrorText({ message: messageOf(error) }) },
            }),
        });
      },
      async testConnection() {
        set({ connectionTest: { phase: 'testing' } });
        await connectionTests.run({
          request: () => api.call('models/test', modelFields(get())),
          onAnswer: (answer) => set({ connectionTest: { phase: 'done', ok: answer.ok, message: answer.message } }),
          onError: (error) =>
            set({
              connectionTest: { phase: 'done', ok: false, message: settingErrorText({ message: messageOf(error) }) },
            }),
        });
      },
      async refreshSettings() {
        set({ settingsStatus: 'loading' });
        await reads.run({
          request: () => api.call('settings/get', {}),
          onAnswer: ({ settings, fixed }) =>
            set({ settings, fixedSettings: fixed ?? [], settingsStatus: 'loaded', settingsError: null }),
          onError: (error) =>
            set({ settingsStatus: 'failed', settingsError: `Could not read the settings: ${messageOf(error)}` }),
        });
      },
      editSetting(key, text) {
        set((state) => ({
          // Typed back to what is stored: no change, nothing to save.
          settingDrafts: sameAsStored(state.settings, key, text)
            ? without(state.settingDrafts, key)
            : { ...state.settingDrafts, [key]: text },
          lastSave: null,
          // A test of other model fields no longer says anything about these, nor a model list of another server.
          ...(isModelKey(key) ? { connectionTest: null } : {}),
          ...(isModelKey(key) && key !== 'model' ? { modelChoices: { status: 'idle', models: [] } } : {}),
        }));
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
        // The model of the next turn follows the settings: the header shows the new one at once.
        if (result.saved.some(isModelKey)) void get().refreshAppInfo();
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

/** Whether a field's text stands for the value stored now (an emptied field for an unset one). */
function sameAsStored(settings: Record<string, unknown>, key: SettingKey, text: string): boolean {
  const kind = kindOf.get(key) ?? 'text';
  const parsed = parseSettingText(kind, text);
  if (!parsed.ok) return false;
  const stored = settings[key];
  if (parsed.value === null) return stored === undefined || stored === null;
  return formatSettingValue(kind, parsed.value) === formatSettingValue(kind, stored) && stored !== undefined;
}

function isModelKey(key: SettingKey): key is ModelSettingKey {
  return (MODEL_SETTING_KEYS as readonly string[]).includes(key);
}

/**
 * The model fields as the form shows them: a draft wins over the stored value; an emptied draft is
 * sent as null (not set: the provider's default, not the value saved before). Drafts that do not
 * parse are left out.
 */
function modelFields(state: SettingsSlice): ApiInput<'models/list'> {
  const fields: Record<string, unknown> = {};
  for (const key of MODEL_SETTING_KEYS) {
    const draft = state.settingDrafts[key];
    if (draft === undefined) {
      if (state.settings[key] !== undefined) fields[key] = state.settings[key];
      continue;
    }
    const parsed = parseSettingText(kindOf.get(key) ?? 'text', draft);
    if (parsed.ok) fields[key] = parsed.value;
  }
  return fields as ApiInput<'models/list'>;
}
