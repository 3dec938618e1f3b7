import { useId } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useAppStore } from './use-app-store.ts';

/**
 * The field "Room" (pairing, and a device's card): free text by the alias rule, offering the rooms
 * the home has already (the host matches them whatever their case). Empty: in no room.
 */
export function RoomField(props: {
  value: string;
  onChange: (room: string) => void;
  testId: string;
  autoFocus?: boolean;
}) {
  const rooms = useAppStore(
    useShallow((state) => [...new Set(state.devices.flatMap((device) => (device.room ? [device.room] : [])))].sort()),
  );
  const ids = useId();
  return (
    <label className="field" htmlFor={`${ids}-room`}>
      <span className="field-label">Room</span>
      <input
        id={`${ids}-room`}
        type="text"
        className="field-input"
        data-testid={props.testId}
        value={props.value}
        maxLength={100}
        list={rooms.length > 0 ? `${ids}-rooms` : undefined}
        placeholder="e.g. Kitchen (empty: no room)"
        autoFocus={props.autoFocus}
        onChange={(event) => props.onChange(event.currentTarget.value)}
      />
      {rooms.length > 0 && (
        <datalist id={`${ids}-rooms`}>
          {rooms.map((room) => (
            <option key={room} value={room} />
          ))}
        </datalist>
      )}
    </label>
  );
}
