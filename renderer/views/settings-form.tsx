import { Fragment, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { AppState } from '../state/create-app-store.ts';
import { settingFields, type SettingKey } from '../state/setting-fields.ts';
import type { SettingsSaveResult } from '../state/settings-slice.ts';
import { AriaDisabledButton } from './aria-disabled-button.tsx';
import { ModelServerTools } from './model-server-tools.tsx';
import { SettingInput } from './setting-input.tsx';
import { WayInSecretField } from './way-in-secret-field.tsx';
import { ApprovalPinSetting } from './approval-pin-setting.tsx';
import { WAY_IN_SECRETS } from '../../host/contract/api-contract.ts';
import { useAppStore } from './use-app-store.ts';

const labelOf = new Map<SettingKey, string>(settingFields.map((field) => [field.key, field.label]));
/** Each way-in secret (a broker password) goes right after the setting naming its variable. */
const secretsAfter = new Map<string, string[]>();
for (const [name, secret] of Object.entries(WAY_IN_SECRETS))
  secretsAfter.set(secret.settingKey, [...(secretsAfter.get(secret.settingKey) ?? []), name]);
const restartKeys = new Set<SettingKey>(
  settingFields.filter((field) => field.restartRequired).map((field) => field.key),
);

/**
 * The Settings tab: one form over the host's stored settings; Save sends every changed field, each
 * refusal shows beside its field. After the model fields: the server's models and Test connection;
 * after a way in's password variable: its password in the keychain (WayInSecretField).
 */
export function SettingsForm() {
  const status = useAppStore((state) => state.settingsStatus);
  const error = useAppStore((state) => state.settingsError);
  const dirty = useAppStore(useShallow((state: AppState) => Object.keys(state.settingDrafts)));
  const saving = useAppStore((state) => state.settingsSaving);
  const lastSave = useAppStore((state) => state.lastSave);
  const saveSettings = useAppStore((state) => state.saveSettings);
  const discard = useAppStore((state) => state.discardSettingDrafts);

  function submit(event: FormEvent): void {
    event.preventDefault();
    void saveSettings();
  }

  return (
    <form
      className="side-section settings-form"
      aria-label="Settings"
      data-testid="settings-form"
      data-status={status}
      onSubmit={submit}
    >
      {error && (
        <p className="side-error" role="alert">
          {error}
        </p>
      )}
      {settingFields.map((field) => (
        <Fragment key={field.key}>
          <SettingInput field={field} />
          {field.key === 'apiKeyEnv' && <ModelServerTools />}
          {secretsAfter.get(field.key)?.map((name) => (
            <WayInSecretField key={name} name={name} />
          ))}
        </Fragment>
      ))}
      <ApprovalPinSetting />
      <div className="settings-actions">
        <button
          type="submit"
          className="button button-primary button-small"
          data-testid="settings-save"
          aria-disabled={dirty.length === 0 || saving}
          onClick={(event) => {
            // Not `disabled`: the button keeps the focus while it saves.
            if (dirty.length === 0 || saving) event.preventDefault();
          }}
        >
          {saving ? 'Saving…' : 'Save'}
        </button>
        <AriaDisabledButton
          className="button button-small"
          data-testid="settings-discard"
          unavailable={dirty.length === 0 || saving}
          onPress={discard}
        >
          Discard changes
        </AriaDisabledButton>
      </div>
      <p
        className={
          lastSave && lastSave.failed.length > 0 ? 'settings-status settings-status-failed' : 'settings-status'
        }
        role="status"
        data-testid="settings-status"
        data-failed={lastSave?.failed.length}
      >
        {lastSave ? describeSave(lastSave) : ''}
      </p>
    </form>
  );
}

/** The line under the form after Save: what was stored, what was not, and when it applies. */
function describeSave(result: SettingsSaveResult): string {
  const names = (keys: SettingKey[]) => keys.map((key) => labelOf.get(key) ?? key).join(', ');
  const parts: string[] = [];
  if (result.saved.length > 0) parts.push(`Saved: ${names(result.saved)}.`);
  // Why a field was not saved is said under that field; here only which ones to look at.
  if (result.failed.length > 0)
    parts.push(`${names(result.failed)}: see under ${result.failed.length === 1 ? 'the field' : 'each field'}.`);
  if (result.saved.some((key) => restartKeys.has(key)))
    parts.push('Some changes apply the next time Home Agent starts.');
  else if (result.saved.length > 0) parts.push('Applies from the next turn.');
  return parts.join(' ') || 'Nothing to save.';
}
