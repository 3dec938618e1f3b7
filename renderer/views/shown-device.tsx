import { useEffect, useId, useRef, useState } from 'react';
import type { DeviceIdentity } from '../../host/contract/api-contract.ts';
import { useAppStore } from './use-app-store.ts';
import { RoomField } from './room-field.tsx';

/**
 * What the chosen device says it is (kind, id, model, firmware, each action with its description
 * and whether it asks for approval), a name for it, and Pair: it is stored with no grants. Then
 * what to do next. The heading takes the focus, so a screen reader starts at what was found.
 */
export function ShownDevice() {
  const probe = useAppStore((state) => state.addDevice.probe);
  const pair = useAppStore((state) => state.addDevice.pair);
  const pairShownDevice = useAppStore((state) => state.pairShownDevice);
  const lookAgain = useAppStore((state) => state.lookAgain);
  const scanPorts = useAppStore((state) => state.scanPorts);
  const closeAddDevice = useAppStore((state) => state.closeAddDevice);
  const device = probe.device;
  const [alias, setAlias] = useState(device?.previous?.alias ?? device?.identity.id ?? '');
  // A room its source suggests (Home Assistant's suggested_area) is offered; the person keeps, changes or clears it.
  const [room, setRoom] = useState(device?.suggestedRoom ?? '');
  const heading = useRef<HTMLHeadingElement>(null);
  const done = useRef<HTMLParagraphElement>(null);
  const ids = useId();
  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    if (pair.status === 'done') done.current?.focus();
  }, [pair.status]);
  if (!device) return null;
  const { identity } = device;

  if (pair.status === 'done' && pair.paired) {
    return (
      <div className="shown-device" data-testid="paired-message">
        <p className="add-device-done" tabIndex={-1} ref={done} role="status">
          Paired {pair.paired.alias}. The agent may use none of its actions yet: allow them on its card in the list.
        </p>
        <div className="add-device-actions">
          <button
            type="button"
            className="button button-small"
            data-testid="add-another"
            onClick={() => {
              lookAgain();
              void scanPorts();
            }}
          >
            Add another device
          </button>
          <button type="button" className="button button-small" data-testid="close-add-device" onClick={closeAddDevice}>
            Done
          </button>
        </div>
      </div>
    );
  }

  return (
    <form
      className="shown-device"
      data-testid="shown-device"
      aria-labelledby={`${ids}-found`}
      onSubmit={(event) => {
        event.preventDefault();
        if (!device.conflict) void pairShownDevice(alias, room);
      }}
    >
      <h3 className="shown-device-title" id={`${ids}-found`} tabIndex={-1} ref={heading}>
        Found a {identity.kind} at {device.path}
      </h3>
      <IdentityList identity={identity} testId="shown-identity" />
      {device.details.length > 0 && (
        <ul className="shown-device-details">
          {device.details.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      <h4 className="shown-device-subtitle">What it can do</h4>
      <ul className="shown-actions" data-testid="shown-actions">
        {device.actions.map((action) => (
          <li key={action.name} className="shown-action" data-action={action.name}>
            <span className="tool-name">{action.name}</span> — {action.description}
            {action.asksApproval && (
              <span className="badge badge-asks" data-testid="asks-approval">
                asks you before each use
              </span>
            )}
          </li>
        ))}
      </ul>
      {device.previous && (
        <p className="side-hint" data-testid="previous-pairing">
          {identity.id} is paired already as “{device.previous.alias}” at {device.previous.path}. Pairing it again here
          starts it with no actions allowed and no standing approvals.
        </p>
      )}
      {device.conflict && (
        <p className="side-error" role="alert" data-testid="pair-conflict">
          It cannot be paired as it is: {device.conflict}
        </p>
      )}
      <label className="field">
        <span className="field-label">Name</span>
        <input
          type="text"
          className="field-input"
          data-testid="device-alias-input"
          value={alias}
          maxLength={100}
          onChange={(event) => setAlias(event.currentTarget.value)}
        />
      </label>
      <RoomField value={room} onChange={setRoom} testId="device-room-input" />
      {device.suggestedRoom !== undefined && (
        <p className="side-hint" data-testid="suggested-room">
          The device suggests the room “{device.suggestedRoom}”: it is kept if you pair it as it is.
        </p>
      )}
      <p className="side-hint">Pairing stores it with no actions allowed; you choose them next.</p>
      <div className="add-device-actions">
        <button
          type="submit"
          className="button button-small button-primary"
          data-testid="pair-device"
          disabled={device.conflict !== undefined || pair.status === 'pairing'}
          aria-busy={pair.status === 'pairing'}
        >
          Pair
        </button>
        <button type="button" className="button button-small" data-testid="back-to-ports" onClick={lookAgain}>
          Back to the ports
        </button>
      </div>
      {pair.status === 'failed' && (
        <p className="side-error" role="alert" data-testid="pair-error">
          {pair.error}
        </p>
      )}
    </form>
  );
}

/** A device's identity as a definition list: kind, id, model, firmware. */
export function IdentityList(props: { identity: DeviceIdentity; testId?: string; differsFrom?: DeviceIdentity }) {
  const rows: [string, keyof DeviceIdentity][] = [
    ['Kind', 'kind'],
    ['Id', 'id'],
    ['Model', 'model'],
    ['Firmware', 'firmware'],
  ];
  return (
    <dl className="identity-list" data-testid={props.testId}>
      {rows.map(([label, key]) => {
        const changed = props.differsFrom !== undefined && props.differsFrom[key] !== props.identity[key];
        return (
          <div key={key} className={changed ? 'identity-row identity-row-changed' : 'identity-row'}>
            <dt>{label}</dt>
            <dd>
              {props.identity[key] || '—'}
              {changed && <span className="visually-hidden"> (changed)</span>}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
