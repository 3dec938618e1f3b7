import { useId } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { AppState } from '../state/create-app-store.ts';
import { AddDevicePanel } from './add-device-panel.tsx';
import { DeviceCard } from './device-card.tsx';
import { useAppStore } from './use-app-store.ts';
import './devices-tab.css';

/** A device's key among the listed ones: a paired device left out by a conflict shares its id with the one holding it. */
export function deviceKey(device: { id: string; source?: string | undefined; status?: string | undefined }): string {
  return `${device.source ?? 'attached'}:${device.status === 'left-out' ? 'left-out:' : ''}${device.id}`;
}

/** The devices' keys by room (whatever its case), rooms in name order, those in no room last. */
function roomGroups(
  keys: readonly string[],
  rooms: readonly string[],
): { key: string; room: string; keys: string[] }[] {
  const groups = new Map<string, { key: string; room: string; keys: string[] }>();
  keys.forEach((key, index) => {
    const room = rooms[index] ?? '';
    const id = room.toLowerCase();
    const group = groups.get(id) ?? { key: `room:${id}`, room, keys: [] };
    group.keys.push(key);
    groups.set(id, group);
  });
  return [...groups.entries()]
    .sort(([a], [b]) => (a === '' ? 1 : b === '' ? -1 : a < b ? -1 : a > b ? 1 : 0))
    .map(([, group]) => group);
}

/** One room's devices under its name (a heading), as a list named by it. */
function RoomGroup(props: { room: string; keys: string[] }) {
  const id = useId();
  const name = props.room || 'No room';
  return (
    <section className="room-group" data-testid="room-group" data-room={props.room}>
      <h2 className="room-title" id={id} data-testid="room-title">
        {name} <span className="room-count">({props.keys.length})</span>
      </h2>
      <ul className="device-list" aria-labelledby={id}>
        {props.keys.map((key) => (
          <DeviceCard key={key} deviceKey={key} />
        ))}
      </ul>
    </section>
  );
}

/**
 * The Devices tab, the pairing UI: "Add device" (scan, look at one, pair it), then every device the
 * host knows with its status, last error, recent events and what the agent may do on it. Changes
 * made in another window or by the CLI show here live (the host's notices re-read the list).
 */
export function DeviceList() {
  const keys = useAppStore(useShallow((state: AppState) => state.devices.map(deviceKey)));
  const rooms = useAppStore(useShallow((state: AppState) => state.devices.map((device) => device.room ?? '')));
  const status = useAppStore((state) => state.devicesStatus);
  const error = useAppStore((state) => state.devicesError);
  const refreshDevices = useAppStore((state) => state.refreshDevices);
  const adding = useAppStore((state) => state.addDevice.open);
  const openAddDevice = useAppStore((state) => state.openAddDevice);
  const closeAddDevice = useAppStore((state) => state.closeAddDevice);
  return (
    <section className="side-section" aria-label="Devices">
      <div className="side-section-bar">
        <span className="side-section-count" role="status">
          {status === 'loaded' || keys.length > 0 ? `${keys.length} device${keys.length === 1 ? '' : 's'}` : ''}
        </span>
        <div className="devices-bar-actions">
          <button
            type="button"
            className="button button-small button-primary"
            id="add-device-button"
            data-testid="add-device"
            aria-expanded={adding}
            aria-controls="add-device-panel"
            onClick={() => (adding ? closeAddDevice() : openAddDevice())}
          >
            Add device
          </button>
          <button
            type="button"
            className="button button-small"
            data-testid="devices-refresh"
            disabled={status === 'loading'}
            onClick={() => void refreshDevices()}
          >
            {status === 'loading' ? 'Refreshing…' : 'Refresh'}
          </button>
        </div>
      </div>
      {adding && <AddDevicePanel />}
      {error && (
        <p className="side-error" role="alert" data-testid="devices-error">
          {error}
        </p>
      )}
      {status === 'loaded' && keys.length === 0 && !adding && (
        <p className="side-empty" data-testid="devices-empty">
          No devices yet. Press Add device to find and pair one.
        </p>
      )}
      {rooms.every((room) => room === '') ? (
        <ul className="device-list" aria-label="Devices">
          {keys.map((key) => (
            <DeviceCard key={key} deviceKey={key} />
          ))}
        </ul>
      ) : (
        roomGroups(keys, rooms).map((group) => <RoomGroup key={group.key} room={group.room} keys={group.keys} />)
      )}
    </section>
  );
}
