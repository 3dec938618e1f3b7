import { useEffect, useId, useRef, useState } from 'react';
import type { DeviceSummary } from '../../host/contract/api-contract.ts';
import { useAppStore } from './use-app-store.ts';

/**
 * Rename and Forget of a paired device. Rename opens a small form in place; Forget asks first
 * ("Keep it" has the focus, the safe choice; Escape keeps it). The focus comes back to the button
 * that opened either, so the keyboard never loses its place.
 */
export function DeviceManage(props: { device: DeviceSummary }) {
  const { device } = props;
  const [mode, setMode] = useState<'idle' | 'renaming' | 'forgetting'>('idle');
  const renameButton = useRef<HTMLButtonElement>(null);
  const forgetButton = useRef<HTMLButtonElement>(null);
  const back = useRef<'rename' | 'forget' | null>(null);
  useEffect(() => {
    if (mode !== 'idle' || back.current === null) return;
    (back.current === 'rename' ? renameButton : forgetButton).current?.focus();
    back.current = null;
  }, [mode]);
  const close = (from: 'rename' | 'forget'): void => {
    back.current = from;
    setMode('idle');
  };
  const leftOut = device.status === 'left-out';
  return (
    <div className="device-manage">
      {mode === 'renaming' && <RenameForm device={device} onDone={() => close('rename')} />}
      {mode === 'forgetting' && <ForgetQuestion device={device} onKeep={() => close('forget')} />}
      {mode === 'idle' && (
        <div className="device-buttons">
          {!leftOut && (
            <button
              type="button"
              className="button button-small"
              ref={renameButton}
              data-testid="rename-device"
              aria-label={`Rename ${device.alias}`}
              onClick={() => setMode('renaming')}
            >
              Rename
            </button>
          )}
          <button
            type="button"
            className="button button-small"
            ref={forgetButton}
            data-testid="forget-device"
            aria-label={`Forget ${device.alias}`}
            onClick={() => setMode('forgetting')}
          >
            Forget
          </button>
        </div>
      )}
    </div>
  );
}

function RenameForm(props: { device: DeviceSummary; onDone: () => void }) {
  const renameDevice = useAppStore((state) => state.renameDevice);
  const [alias, setAlias] = useState(props.device.alias);
  const input = useRef<HTMLInputElement>(null);
  const ids = useId();
  useEffect(() => input.current?.select(), []);
  return (
    <form
      className="rename-form"
      data-testid="rename-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!alias.trim()) return;
        void renameDevice(props.device.id, alias.trim()).then((renamed) => renamed && props.onDone());
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          props.onDone();
        }
      }}
    >
      <label className="field" htmlFor={`${ids}-alias`}>
        <span className="field-label">New name for {props.device.alias}</span>
      </label>
      <div className="rename-row">
        <input
          id={`${ids}-alias`}
          ref={input}
          type="text"
          className="field-input"
          data-testid="rename-input"
          value={alias}
          maxLength={100}
          required
          onChange={(event) => setAlias(event.currentTarget.value)}
        />
        <button type="submit" className="button button-small button-primary" data-testid="rename-save">
          Save
        </button>
        <button type="button" className="button button-small" onClick={props.onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function ForgetQuestion(props: { device: DeviceSummary; onKeep: () => void }) {
  const forgetDevice = useAppStore((state) => state.forgetDevice);
  const keep = useRef<HTMLButtonElement>(null);
  const ids = useId();
  useEffect(() => keep.current?.focus(), []);
  return (
    <div
      className="forget-question"
      role="alertdialog"
      aria-labelledby={`${ids}-title`}
      aria-describedby={`${ids}-text`}
      data-testid="forget-question"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          props.onKeep();
        }
      }}
    >
      <p className="forget-title" id={`${ids}-title`}>
        Forget {props.device.alias}?
      </p>
      <p className="forget-text" id={`${ids}-text`}>
        Its pairing, its allowed actions and its standing approvals go, and the host lets go of {props.device.path}. To
        use it again, pair it again.
      </p>
      <div className="device-buttons">
        <button
          type="button"
          className="button button-small"
          ref={keep}
          data-testid="forget-keep"
          onClick={props.onKeep}
        >
          Keep it
        </button>
        <button
          type="button"
          className="button button-small button-danger"
          data-testid="forget-confirm"
          onClick={() =>
            void forgetDevice(props.device.id).then((forgotten) => {
              // The card goes with the device: the focus moves to the tab's first control instead of getting lost.
              if (forgotten) document.getElementById('add-device-button')?.focus();
            })
          }
        >
          Forget {props.device.alias}
        </button>
      </div>
    </div>
  );
}
