import { useState, type KeyboardEvent } from 'react';
import { settingsTable, WAY_IN_SECRETS, isSettingKey } from '../../host/contract/api-contract.ts';
import { AriaDisabledButton } from './aria-disabled-button.tsx';
import { useAppStore } from './use-app-store.ts';

/**
 * A way in's secret (a broker password) in Settings, beside the setting naming its variable. Where the
 * front end keeps secrets (the desktop app's keychain): a password field that stores it, says whether
 * one is kept and never shows it back, and Remove. Elsewhere (`home-agent serve`): where to put it instead.
 */
export function WayInSecretField(props: { name: string }) {
  const { name } = props;
  const declared = WAY_IN_SECRETS[name];
  const status = useAppStore((state) => state.secretsStatus);
  const action = useAppStore((state) => state.wayInSecretActions[name]);
  const keepWayInSecret = useAppStore((state) => state.keepWayInSecret);
  const removeWayInSecret = useAppStore((state) => state.removeWayInSecret);
  const [text, setText] = useState('');
  if (declared === undefined || status === null) return null;
  const inputId = `way-in-secret-${name}`;
  const hintId = `${inputId}-hint`;
  const variable = isSettingKey(declared.settingKey)
    ? settingsTable[declared.settingKey].label
    : 'its variable setting';

  if (!status.available)
    return (
      <div className="setting-field" data-testid="way-in-secret" data-secret={name}>
        <p className="setting-label">{declared.label}</p>
        <p className="setting-hint" data-testid="way-in-secret-note">
          This front end keeps no secrets: put the {declared.label.toLowerCase()} in an environment variable on this
          machine and name that variable in {variable}.
        </p>
      </div>
    );

  const kept = status.wayInSecrets[name] === true;
  const busy = action?.phase === 'busy';
  const keep = async (): Promise<void> => {
    if (text === '' || busy) return;
    // The window keeps no copy once the host has it.
    if (await keepWayInSecret(name, text)) setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    // Enter keeps the secret; it never submits the settings form around it.
    if (event.key !== 'Enter') return;
    event.preventDefault();
    void keep();
  };

  return (
    <div className="setting-field" data-testid="way-in-secret" data-secret={name} data-kept={String(kept)}>
      <label className="setting-label" htmlFor={inputId}>
        {declared.label}
      </label>
      <input
        id={inputId}
        className="setting-input"
        type="password"
        autoComplete="new-password"
        data-testid="way-in-secret-input"
        aria-describedby={hintId}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        onKeyDown={onKeyDown}
      />
      <p id={hintId} className="setting-hint" data-testid="way-in-secret-state">
        {kept ? 'Kept in the keychain.' : 'None kept.'} {declared.help} A password variable, when set, wins.
      </p>
      <div className="settings-actions">
        <AriaDisabledButton
          className="button button-small"
          data-testid="way-in-secret-keep"
          unavailable={text === '' || busy}
          onPress={() => void keep()}
        >
          Keep in the keychain
        </AriaDisabledButton>
        {kept && (
          <AriaDisabledButton
            className="button button-small"
            data-testid="way-in-secret-remove"
            unavailable={busy}
            onPress={() => void removeWayInSecret(name)}
          >
            Remove {declared.label.toLowerCase()}
          </AriaDisabledButton>
        )}
      </div>
      <p
        className={action?.phase === 'failed' ? 'setting-error' : 'setting-hint'}
        role="status"
        data-testid="way-in-secret-status"
      >
        {action?.phase === 'failed' || action?.phase === 'done' ? action.message : ''}
      </p>
    </div>
  );
}
