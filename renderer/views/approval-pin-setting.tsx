import { useEffect, useState, type KeyboardEvent } from 'react';
import { AriaDisabledButton } from './aria-disabled-button.tsx';
import { useAppStore } from './use-app-store.ts';

/**
 * The approval PIN in Settings: "Approval PIN" sets it (4 to 12 digits); once one is set, changing or
 * removing it needs the "Current PIN". The host keeps only a salted hash; nothing typed is shown back
 * or kept here once the host has it. A forgotten PIN is reset at the machine (`home-agent pin reset`).
 */
export function ApprovalPinSetting() {
  const pinSet = useAppStore((state) => state.pinSet);
  const message = useAppStore((state) => state.pinMessage);
  const refreshPinStatus = useAppStore((state) => state.refreshPinStatus);
  const changePin = useAppStore((state) => state.changePin);
  const [pin, setPin] = useState('');
  const [currentPin, setCurrentPin] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void refreshPinStatus();
  }, [refreshPinStatus]);
  if (pinSet === null) return null;
  const change = async (next: string): Promise<void> => {
    if (busy) return;
    setBusy(true);
    if (await changePin({ pin: next, currentPin })) {
      setPin('');
      setCurrentPin('');
    }
    setBusy(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    // Enter saves the PIN; it never submits the settings form around it.
    if (event.key !== 'Enter') return;
    event.preventDefault();
    if (pin !== '') void change(pin);
  };
  return (
    <div className="setting-field" data-testid="approval-pin-setting" data-pin-set={String(pinSet)}>
      <label className="setting-label" htmlFor="approval-pin-new">
        Approval PIN
      </label>
      <input
        id="approval-pin-new"
        className="setting-input"
        type="password"
        inputMode="numeric"
        autoComplete="new-password"
        maxLength={12}
        aria-describedby="approval-pin-hint"
        data-testid="approval-pin-new"
        value={pin}
        onChange={(event) => setPin(event.currentTarget.value)}
        onKeyDown={onKeyDown}
      />
      {pinSet && (
        <>
          <label className="setting-label" htmlFor="approval-pin-current">
            Current PIN
          </label>
          <input
            id="approval-pin-current"
            className="setting-input"
            type="password"
            inputMode="numeric"
            autoComplete="current-password"
            maxLength={12}
            data-testid="approval-pin-current"
            value={currentPin}
            onChange={(event) => setCurrentPin(event.currentTarget.value)}
            onKeyDown={onKeyDown}
          />
        </>
      )}
      <p id="approval-pin-hint" className="setting-hint" data-testid="approval-pin-state">
        {pinSet ? 'A PIN is set.' : 'No PIN is set.'} Calls that need the PIN (locks, doors, garages, and actions you
        mark) are allowed only with it. 4 to 12 digits. Forgotten: run home-agent pin reset on the machine.
      </p>
      <div className="settings-actions">
        <AriaDisabledButton
          className="button button-small"
          data-testid="approval-pin-save"
          unavailable={pin === '' || busy}
          onPress={() => void change(pin)}
        >
          {pinSet ? 'Change PIN' : 'Set PIN'}
        </AriaDisabledButton>
        {pinSet && (
          <AriaDisabledButton
            className="button button-small"
            data-testid="approval-pin-remove"
            unavailable={currentPin === '' || busy}
            onPress={() => void change('')}
          >
            Remove PIN
          </AriaDisabledButton>
        )}
      </div>
      {message && (
        <p
          className={message.ok ? 'settings-status' : 'settings-status settings-status-failed'}
          role={message.ok ? 'status' : 'alert'}
          data-testid="approval-pin-message"
        >
          {message.text}
        </p>
      )}
    </div>
  );
}
