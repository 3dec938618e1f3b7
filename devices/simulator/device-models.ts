import { DeviceFailure } from './simulated-device-model.ts';
import type { EmitEvent, SimulatedDeviceModel } from './simulated-device-model.ts';

const noArguments = { type: 'object', properties: {} } as const;

/** A dimmable lamp: `set` {on?, brightness? 0–100}, `get`. State survives unplugging. */
export function createLampModel(): SimulatedDeviceModel & { state: { on: boolean; brightness: number } } {
  const state = { on: false, brightness: 100 };
  return {
    kind: 'lamp',
    model: 'SimLamp 1',
    firmware: '1.0.0',
    state,
    tools: [
      {
        name: 'set',
        description: 'Switch the lamp on or off and/or set its brightness (0–100).',
        parameters: {
          type: 'object',
          properties: { on: { type: 'boolean' }, brightness: { type: 'integer', minimum: 0, maximum: 100 } },
        },
        parallelSafe: true,
        serial: false,
      },
      {
        name: 'get',
        description: 'Read whether the lamp is on and its brightness.',
        parameters: noArguments,
        parallelSafe: true,
        serial: false,
        readOnly: true,
      },
    ],
    handle(tool, args) {
      if (tool === 'get') return { ...state };
      if (args.on === undefined && args.brightness === undefined)
        throw new DeviceFailure('required', 'give on and/or brightness', 'on');
      if (args.on !== undefined) {
        if (typeof args.on !== 'boolean') throw new DeviceFailure('type', 'on must be a boolean', 'on');
        state.on = args.on;
      }
      if (args.brightness !== undefined) {
        const brightness = args.brightness;
        if (typeof brightness !== 'number' || !Number.isInteger(brightness) || brightness < 0 || brightness > 100) {
          throw new DeviceFailure('type', 'brightness must be an integer 0–100', 'brightness');
        }
        state.brightness = brightness;
      }
      return { ...state };
    },
  };
}

/** A thermometer/hygrometer: `read` → {celsius, humidity}; tests set the reading. */
export function createThermometerModel(): SimulatedDeviceModel & { state: { celsius: number; humidity: number } } {
  const state = { celsius: 21.5, humidity: 45 };
  return {
    kind: 'thermometer',
    model: 'SimTH 2',
    firmware: '2.1.0',
    state,
    tools: [
      {
        name: 'read',
        description: 'Read the temperature (°C) and relative humidity (%).',
        parameters: noArguments,
        parallelSafe: true,
        serial: false,
        readOnly: true,
      },
    ],
    handle() {
      return { ...state };
    },
  };
}

/** A one-line text display: `show` {text} (at most 64 characters). */
export function createDisplayModel(): SimulatedDeviceModel & { state: { text: string; shown: string[] } } {
  const state = { text: '', shown: [] as string[] };
  return {
    kind: 'display',
    model: 'SimLCD 16x4',
    firmware: '1.2.0',
    state,
    tools: [
      {
        name: 'show',
        description: 'Show a short text (at most 64 characters) on the display.',
        parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        parallelSafe: true,
        serial: false,
      },
    ],
    handle(_tool, args) {
      if (typeof args.text !== 'string') throw new DeviceFailure('required', 'text is required', 'text');
      if (args.text.length > 64) throw new DeviceFailure('type', 'text longer than 64 characters', 'text');
      state.text = args.text;
      state.shown.push(args.text);
      return { shown: args.text };
    },
  };
}

/** A door contact: `read` → {open}; sends a `door` event {open} whenever it changes (`setOpen`). */
export function createDoorSensorModel(): SimulatedDeviceModel & {
  state: { open: boolean };
  setOpen(open: boolean): void;
} {
  const state = { open: false };
  let emit: EmitEvent = () => undefined;
  return {
    kind: 'door_sensor',
    model: 'SimDoor 1',
    firmware: '1.0.0',
    state,
    tools: [
      {
        name: 'read',
        description: 'Read whether the door is open.',
        parameters: noArguments,
        parallelSafe: true,
        serial: false,
        readOnly: true,
      },
    ],
    handle() {
      return { ...state };
    },
    bindEvents(send) {
      emit = send;
    },
    setOpen(open) {
      state.open = open;
      emit('door', { open });
    },
  };
}

/**
 * A door lock: `set` {locked} (asks the person each time; by its kind it also needs the approval
 * PIN), `get` → {locked}; sends a `lock` event {locked} whenever it changes. Starts locked.
 */
export function createLockModel(): SimulatedDeviceModel & { state: { locked: boolean } } {
  const state = { locked: true };
  let emit: EmitEvent = () => undefined;
  return {
    kind: 'lock',
    model: 'SimLock 1',
    firmware: '1.0.0',
    state,
    tools: [
      {
        name: 'set',
        description: 'Lock (locked: true) or unlock (locked: false) the door.',
        parameters: { type: 'object', properties: { locked: { type: 'boolean' } }, required: ['locked'] },
        parallelSafe: true,
        serial: false,
        confirm: true,
      },
      {
        name: 'get',
        description: 'Read whether the door is locked.',
        parameters: noArguments,
        parallelSafe: true,
        serial: false,
        readOnly: true,
      },
    ],
    handle(tool, args) {
      if (tool === 'get') return { ...state };
      if (typeof args.locked !== 'boolean') throw new DeviceFailure('type', 'locked must be true or false', 'locked');
      if (state.locked !== args.locked) {
        state.locked = args.locked;
        emit('lock', { locked: state.locked });
      }
      return { ...state };
    },
    bindEvents(send) {
      emit = send;
    },
  };
}
