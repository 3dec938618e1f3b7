import { useEffect, useId, useRef, useState } from 'react';
import type { DeviceSummary } from '../../host/contract/api-contract.ts';
import { ConfirmQuestion } from './confirm-question.tsx';
import { useAppStore } from './use-app-store.ts';
import { useModeReturningFocus } from './use-mode-returning-focus.ts';
import { RoomField } from './room-field.tsx';

/**
 * Rename, Room and Forget of a paired device. Rename opens a small form in place; Forget asks first
 * ("Keep it" has the focus, the safe choice; Escape keeps it). The focus comes back to the button
 * that opened either, so the keyboard never loses its place.
 */
export function DeviceManage(props: { device: DeviceSummary }) {
  const { device } = props;
  const { mode, open, close, opener } = useModeReturningFocus<'idle' | 'renaming' | 'moving' | 'forgetting'>('idle');
  const leftOut = device.status === 'left-out';
  return (
    <div className="device-manage">
      {mode === 'renaming' && <RenameForm device={device} onDone={close} />}
      {mode === 'moving' && <RoomForm device={device} onDone={close} />}
      {mode === 'forgetting' && <ForgetQuestion device={device} onKeep={close} />}
      {mode === 'idle' && (
        <div className="device-buttons">
          {!leftOut && (
            <button
              type="button"
              className="button button-small"
              ref={opener('renaming')}
              data-testid="rename-device"
              aria-label={`Rename ${device.alias}`}
              onClick={() => open('renaming')}
            >
              Rename
            </button>
          )}
          {!leftOut && (
            <button
              type="button"
              className="button button-small"
              ref={opener('moving')}
              data-testid="device-room-button"
              aria-label={`Move ${device.alias} to another room`}
              onClick={() => open('moving')}
            >
              {device.room ? `In ${device.room}` : 'Put in a room'}
            </button>
          )}
          <button
            type="button"
            className="button button-small"
            ref={opener('forgetting')}
            data-testid="forget-device"
            aria-label={`Forget ${device.alias}`}
            onClick={() => open('forgetting')}
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

function RoomForm(props: { device: DeviceSummary; onDone: () => void }) {
  const setDeviceRoom = useAppStore((state) => state.setDeviceRoom);
  const [room, setRoom] = useState(props.device.room ?? '');
  return (
    <form
      className="rename-form"
      data-testid="room-form"
      aria-label={`Room of ${props.device.alias}`}
      onSubmit={(event) => {
        event.preventDefault();
        void setDeviceRoom(props.device.id, room).then((moved) => moved && props.onDone());
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          props.onDone();
        }
      }}
    >
      <div className="rename-row">
        <RoomField value={room} onChange={setRoom} testId="device-room-field" autoFocus />
        <button type="submit" className="button button-small button-primary" data-testid="room-save">
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
  const ids = useId();
  return (
    <ConfirmQuestion
      className="forget-question"
      role="alertdialog"
      aria-labelledby={`${ids}-title`}
      aria-describedby={`${ids}-text`}
      data-testid="forget-question"
      actionsClassName="device-buttons"
      keep={{ label: 'Keep it', testId: 'forget-keep' }}
      confirm={{ label: `Forget ${props.device.alias}`, testId: 'forget-confirm' }}
      onKeep={props.onKeep}
      onConfirm={() =>
        void forgetDevice(props.device.id).then((forgotten) => {
          // The card goes with the device: the focus moves to the tab's first control instead of getting lost.
          if (forgotten) document.getElementById('add-device-button')?.focus();
        })
      }
    >
      <p className="forget-title" id={`${ids}-title`}>
        Forget {props.device.alias}?
      </p>
      <p className="forget-text" id={`${ids}-text`}>
        Its pairing, its allowed actions and its standing approvals go, and the host lets go of {props.device.path}. To
        use it again, pair it again.
      </p>
    </ConfirmQuestion>
  );
}
