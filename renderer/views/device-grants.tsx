import { useEffect } from 'react';
import type { DeviceSummary } from '../../host/contract/api-contract.ts';
import { AriaDisabledButton } from './aria-disabled-button.tsx';
import { useAppStore } from './use-app-store.ts';

/**
 * What the agent may do on a paired device: a switch per action ("Allow set on Desk lamp"), which
 * actions ask the person each time and which are always allowed (with a way to stop that), and
 * "Allow all" / "Revoke all". Each change applies to the agent's next call, in every front end.
 */
export function DeviceGrants(props: { device: DeviceSummary }) {
  const { device } = props;
  const pending = useAppStore((state) => state.deviceChanges[device.id]?.pending !== undefined);
  const setActionAllowed = useAppStore((state) => state.setActionAllowed);
  const allowAllActions = useAppStore((state) => state.allowAllActions);
  const revokeAllActions = useAppStore((state) => state.revokeAllActions);
  const stopAlwaysAllowing = useAppStore((state) => state.stopAlwaysAllowing);
  const pinActions = useAppStore((state) => state.pinActions[device.id]);
  const refreshPinActions = useAppStore((state) => state.refreshPinActions);
  const setNeedsPin = useAppStore((state) => state.setNeedsPin);
  const declared = device.tools.join(' ');
  useEffect(() => {
    void refreshPinActions(device.id);
  }, [refreshPinActions, device.id, declared]);
  const needsPin = new Map((pinActions ?? []).map((action) => [action.name, action.needsPin]));
  const actions = device.actions ?? device.tools.map((name) => ({ name, description: '', asksApproval: false }));
  const granted = new Set(device.granted ?? []);
  const always = new Set(device.alwaysAllowed ?? []);
  const untrusted = device.trusted === false;
  const allGranted = actions.every((action) => granted.has(action.name));
  return (
    <div className="device-grants" role="group" aria-label={`What the agent may do on ${device.alias}`}>
      <p className="device-grants-title">
        What the agent may do
        {untrusted && <span className="side-hint"> (nothing until you trust what it says now)</span>}
      </p>
      <ul className="grant-list">
        {actions.map((action) => {
          const allowed = granted.has(action.name);
          return (
            <li
              key={action.name}
              className="grant-row"
              data-testid="grant-row"
              data-action={action.name}
              data-granted={String(allowed)}
            >
              <input
                type="checkbox"
                role="switch"
                className="switch grant-switch"
                data-testid="grant-switch"
                aria-label={`Allow ${action.name} on ${device.alias}`}
                checked={allowed}
                aria-disabled={pending}
                onChange={(event) => {
                  // aria-disabled, not disabled: the switch keeps the keyboard focus while the host answers.
                  if (!pending) void setActionAllowed(device.id, action.name, event.currentTarget.checked);
                }}
              />
              <span className="grant-text">
                <span className="tool-name">{action.name}</span>
                {action.description && <span className="grant-description"> — {action.description}</span>}
                <span className="grant-state">{allowed ? ' · allowed' : ' · not allowed'}</span>
                {action.asksApproval && !always.has(action.name) && (
                  <span className="badge badge-asks">asks you each time</span>
                )}
                {always.has(action.name) && (
                  <span className="badge badge-always" data-testid="always-allowed">
                    always allowed
                  </span>
                )}
              </span>
              {needsPin.has(action.name) && (
                <label className="grant-pin" data-testid="needs-pin" data-needs-pin={String(needsPin.get(action.name))}>
                  <input
                    type="checkbox"
                    role="switch"
                    className="switch"
                    aria-label="Needs the PIN"
                    aria-describedby={`pin-of-${device.id}-${action.name}`}
                    checked={needsPin.get(action.name) === true}
                    onChange={(event) => void setNeedsPin(device.id, action.name, event.currentTarget.checked)}
                  />
                  <span id={`pin-of-${device.id}-${action.name}`} className="grant-description">
                    {' '}
                    {action.name} on {device.alias} needs the approval PIN
                  </span>
                </label>
              )}
              {always.has(action.name) && (
                <AriaDisabledButton
                  className="button button-small"
                  data-testid="stop-always-allowing"
                  aria-label={`Stop always allowing ${action.name} on ${device.alias}`}
                  unavailable={pending}
                  onPress={() => void stopAlwaysAllowing(`${device.kind}__${action.name}`, device.id)}
                >
                  Ask each time
                </AriaDisabledButton>
              )}
            </li>
          );
        })}
      </ul>
      <div className="device-buttons">
        <AriaDisabledButton
          className="button button-small"
          data-testid="allow-all"
          aria-label={`Allow all on ${device.alias}`}
          unavailable={pending || allGranted}
          onPress={() => void allowAllActions(device.id)}
        >
          Allow all
        </AriaDisabledButton>
        <AriaDisabledButton
          className="button button-small"
          data-testid="revoke-all"
          aria-label={`Revoke all on ${device.alias}`}
          unavailable={pending || granted.size === 0}
          onPress={() => void revokeAllActions(device.id)}
        >
          Revoke all
        </AriaDisabledButton>
      </div>
    </div>
  );
}
