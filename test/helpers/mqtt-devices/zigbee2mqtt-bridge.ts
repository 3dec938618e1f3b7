import { connectDeviceClient, type DeviceBrokerAccess, type ReceivedMessage } from './device-client.ts';

// Plays Zigbee2MQTT as its documentation describes it (zigbee2mqtt.io: guide/usage/mqtt_topics_and_messages.md,
// guide/usage/exposes.md, guide/configuration/device-availability.md), from those topics alone.

/** One device of the played bridge: an entry of `zigbee2mqtt/bridge/devices` and its state. */
export interface PlayedZigbeeDevice {
  friendly_name: string;
  ieee_address: string;
  vendor: string;
  model: string;
  exposes: unknown[];
  /** The state the bridge publishes on `zigbee2mqtt/FRIENDLY_NAME`. */
  state: Record<string, unknown>;
  /** Takes `/set` messages without ever publishing a new state (a device out of reach). */
  silent?: boolean;
}

/** A `switch` expose with the documented `state` binary. */
export function switchExpose(property = 'state'): unknown {
  return {
    type: 'switch',
    features: [
      { type: 'binary', name: 'state', property, value_on: 'ON', value_off: 'OFF', value_toggle: 'TOGGLE', access: 7 },
    ],
  };
}

/** A numeric value the device publishes (access 1: in the state only). */
export function numericExpose(property: string, unit: string): unknown {
  return { type: 'numeric', name: property, property, unit, access: 1 };
}

/** A played Zigbee2MQTT bridge. */
export interface PlayedZigbee2mqtt {
  /** Every `/set` message the bridge received, exactly as it came. */
  readonly sets: ReceivedMessage[];
  /** Every `/get` message the bridge received, exactly as it came. */
  readonly gets: ReceivedMessage[];
  /** Publishes a device's state (merged into what it had), as the bridge does on a report. */
  publishState(name: string, state: Record<string, unknown>): Promise<void>;
  /** Publishes a device's retained availability, as the bridge does when it sees the device come or go (2.x's wire). */
  setAvailability(name: string, online: boolean): Promise<void>;
  /** Publishes the retained device list again (after adding or removing devices). */
  publishDevices(devices: readonly PlayedZigbeeDevice[]): Promise<void>;
  stop(): Promise<void>;
}

/**
 * How the played bridge speaks: `1.x` as Zigbee2MQTT 1.x with its legacy availability payload
 * (plain `online`/`offline` on `bridge/state`, no device availability); `2.x` as 2.x, where the legacy
 * payload is gone: `{"state":"online"}` on `bridge/state` and on each device's retained
 * `zigbee2mqtt/NAME/availability` (guide/configuration/device-availability.md).
 */
export type Zigbee2mqttWire = '1.x' | '2.x';

/** A `light` expose with the documented `state` binary and `brightness` (exposes.md, "Light"). */
export function lightExpose(): unknown {
  return {
    type: 'light',
    features: [
      {
        type: 'binary',
        name: 'state',
        property: 'state',
        value_on: 'ON',
        value_off: 'OFF',
        value_toggle: 'TOGGLE',
        access: 7,
      },
      { type: 'numeric', name: 'brightness', property: 'brightness', value_min: 0, value_max: 254, access: 7 },
    ],
  };
}

/**
 * Starts the bridge: its will `offline` on `zigbee2mqtt/bridge/state`, then `online` and the device
 * list (both retained). A JSON `/set` is applied to the device's state and the whole state published
 * on `zigbee2mqtt/NAME` (not retained, as Zigbee2MQTT does by default), unless the device is silent.
 */
export async function startZigbee2mqttBridge(
  access: DeviceBrokerAccess,
  initial: readonly PlayedZigbeeDevice[],
  wire: Zigbee2mqttWire = '1.x',
): Promise<PlayedZigbee2mqtt> {
  let devices = [...initial];
  const availability = (online: boolean): string =>
    wire === '2.x' ? JSON.stringify({ state: online ? 'online' : 'offline' }) : online ? 'online' : 'offline';
  const sets: ReceivedMessage[] = [];
  const gets: ReceivedMessage[] = [];
  const { client, stop } = await connectDeviceClient(access, {
    clientId: 'played-zigbee2mqtt',
    will: { topic: 'zigbee2mqtt/bridge/state', payload: Buffer.from(availability(false)), retain: true, qos: 1 },
  });
  const publishState = async (name: string, state: Record<string, unknown>): Promise<void> => {
    const device = devices.find((candidate) => candidate.friendly_name === name);
    if (!device) throw new Error(`no played device ${name}`);
    device.state = { ...device.state, ...state };
    await client.publishAsync(`zigbee2mqtt/${name}`, JSON.stringify(device.state), { qos: 1 });
  };
  const setAvailability = async (name: string, online: boolean): Promise<void> => {
    await client.publishAsync(`zigbee2mqtt/${name}/availability`, availability(online), { qos: 1, retain: true });
  };
  const publishDevices = async (list: readonly PlayedZigbeeDevice[]): Promise<void> => {
    devices = [...list];
    const entries = [
      {
        ieee_address: '0x00124b00120144ae',
        type: 'Coordinator',
        network_address: 0,
        supported: false,
        friendly_name: 'Coordinator',
        definition: null,
        interview_completed: true,
      },
      ...devices.map((device) => ({
        ieee_address: device.ieee_address,
        type: 'Router',
        supported: true,
        friendly_name: device.friendly_name,
        definition: {
          model: device.model,
          vendor: device.vendor,
          description: device.model,
          options: [],
          exposes: device.exposes,
        },
        interview_completed: true,
      })),
    ];
    await client.publishAsync('zigbee2mqtt/bridge/devices', JSON.stringify(entries), { qos: 1, retain: true });
  };
  client.on('message', (topic, payload) => {
    if (topic.endsWith('/get')) {
      // A /get makes the device publish its state (documented: `{"state": ""}` reads the state).
      const name = topic.slice('zigbee2mqtt/'.length, -'/get'.length);
      gets.push({ topic, payload: payload.toString('utf8') });
      const device = devices.find((candidate) => candidate.friendly_name === name);
      if (device && !device.silent) void publishState(name, {});
      return;
    }
    if (!topic.endsWith('/set')) return;
    const name = topic.slice('zigbee2mqtt/'.length, -'/set'.length);
    sets.push({ topic, payload: payload.toString('utf8') });
    const device = devices.find((candidate) => candidate.friendly_name === name);
    if (!device || device.silent) return;
    let command: unknown;
    try {
      command = JSON.parse(payload.toString('utf8'));
    } catch {
      return; // Zigbee2MQTT only accepts JSON on /set; anything else changes nothing.
    }
    if (typeof command !== 'object' || command === null) return;
    void publishState(name, command as Record<string, unknown>);
  });
  await client.subscribeAsync('zigbee2mqtt/#', { qos: 1 });
  await client.publishAsync('zigbee2mqtt/bridge/state', availability(true), { qos: 1, retain: true });
  await publishDevices(devices);
  if (wire === '2.x') for (const device of devices) await setAvailability(device.friendly_name, true);
  return {
    sets,
    gets,
    publishState,
    setAvailability,
    publishDevices,
    stop: async () => {
      // Clears what it retained, so the next test's broker state starts empty.
      await client.publishAsync('zigbee2mqtt/bridge/devices', '', { qos: 1, retain: true });
      await client.publishAsync('zigbee2mqtt/bridge/state', '', { qos: 1, retain: true });
      if (wire === '2.x')
        for (const device of devices)
          await client.publishAsync(`zigbee2mqtt/${device.friendly_name}/availability`, '', { qos: 1, retain: true });
      await stop();
    },
  };
}
