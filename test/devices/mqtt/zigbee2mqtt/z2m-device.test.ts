import { describe, expect, it } from 'vitest';
import { readBridgeDevices } from '../../../../devices/mqtt/zigbee2mqtt/z2m-bridge-devices.ts';
import { z2mAvailability, z2mDevice } from '../../../../devices/mqtt/zigbee2mqtt/z2m-device.ts';
import type { ConventionDevice } from '../../../../devices/mqtt/conventions/convention-device.ts';
import { checkHello } from '../../../../devices/protocol/check-hello.ts';
import { ToolError } from '../../../../core/tools/tool-error.ts';

// Entries shaped as Zigbee2MQTT documents them (guide/usage/mqtt_topics_and_messages.md, guide/usage/exposes.md).
const STATE = {
  type: 'binary',
  name: 'state',
  property: 'state',
  value_on: 'ON',
  value_off: 'OFF',
  value_toggle: 'TOGGLE',
  access: 7,
};
const PLUG = {
  ieee_address: '0x00158d00018255df',
  type: 'Router',
  network_address: 29159,
  supported: true,
  friendly_name: 'my_plug',
  definition: {
    model: 'ZNCZ02LM',
    vendor: 'Xiaomi',
    description: 'Mi power plug ZigBee',
    options: [],
    exposes: [
      { type: 'switch', features: [STATE] },
      { type: 'numeric', name: 'power', property: 'power', unit: 'W', access: 5 },
    ],
  },
  power_source: 'Mains (single phase)',
  interview_completed: true,
};
const BULB = {
  ieee_address: '0x90fd9ffffe6494fc',
  type: 'Router',
  supported: true,
  friendly_name: 'kitchen/floor_light',
  software_build_id: '1.3.009',
  definition: {
    model: 'LED1624G9',
    vendor: 'IKEA',
    exposes: [
      {
        type: 'light',
        features: [
          STATE,
          { type: 'numeric', name: 'brightness', property: 'brightness', value_min: 0, value_max: 254, access: 7 },
          {
            type: 'composite',
            name: 'color_xy',
            property: 'color',
            features: [
              { type: 'numeric', name: 'x', property: 'x', access: 7 },
              { type: 'numeric', name: 'y', property: 'y', access: 7 },
            ],
          },
        ],
      },
    ],
  },
};
const CLIMATE_SENSOR = {
  ieee_address: '0x00158d0001a2b3c4',
  type: 'EndDevice',
  supported: true,
  friendly_name: 'hall sensor',
  definition: {
    model: 'WSDCGQ01LM',
    vendor: 'Xiaomi',
    exposes: [
      { type: 'numeric', name: 'temperature', property: 'temperature', unit: '°C', access: 1 },
      { type: 'numeric', name: 'humidity', property: 'humidity', unit: '%', access: 1 },
    ],
  },
};
const TWO_GANG = {
  ieee_address: '0x00158d0002c3d4e5',
  type: 'Router',
  supported: true,
  friendly_name: 'stairs',
  definition: {
    model: 'QBKG03LM',
    vendor: 'Xiaomi',
    exposes: [
      { type: 'switch', endpoint: 'left', features: [{ ...STATE, property: 'state_left', endpoint: 'left' }] },
      { type: 'switch', endpoint: 'right', features: [{ ...STATE, property: 'state_right', endpoint: 'right' }] },
    ],
  },
};
const LOCK = {
  ieee_address: '0x00158d0003d4e5f6',
  type: 'EndDevice',
  supported: true,
  friendly_name: 'front_door',
  definition: {
    model: 'YRD226',
    vendor: 'Yale',
    exposes: [{ type: 'lock', features: [{ ...STATE, value_on: 'LOCK', value_off: 'UNLOCK' }] }],
  },
};
const COORDINATOR = {
  ieee_address: '0x00124b00120144ae',
  type: 'Coordinator',
  supported: false,
  friendly_name: 'Coordinator',
  definition: null,
};

function device(entry: unknown): ConventionDevice {
  const { devices } = readBridgeDevices([entry]);
  const reading = z2mDevice(devices[0]!);
  if (!reading.ok) throw new Error(reading.why);
  return reading.device;
}

function publishOf(found: ConventionDevice, tool: string, args: Record<string, unknown>) {
  const call = found.call(tool, args);
  if (call.kind !== 'publish') throw new Error('expected a publish');
  return call;
}

describe('z2mDevice', () => {
  it('makes a plug a switch with set and read, named by the one id rule', () => {
    const plug = device(PLUG);
    expect(plug.path).toBe('z2m:my_plug');
    expect(plug.hello.device).toEqual({
      id: 'z2m_my_plug',
      kind: 'switch',
      model: 'Xiaomi ZNCZ02LM',
      firmware: 'ieee=0x00158d00018255df',
    });
    expect(plug.hello.tools.map((tool) => [tool.name, tool.readOnly === true])).toEqual([
      ['set', false],
      ['read', true],
    ]);
    expect(checkHello(plug.hello).ok).toBe(true);
  });

  it('publishes exactly {state: value_on} on zigbee2mqtt/NAME/set, and waits for that state', () => {
    const call = publishOf(device(PLUG), 'set', { on: true });
    expect(call.topic).toBe('zigbee2mqtt/my_plug/set');
    expect(call.payload).toBe('{"state":"ON"}');
    expect(call.expect?.matches({ state: 'ON', power: 3 })).toBe(true);
    expect(call.expect?.matches({ state: 'OFF' })).toBe(false);
    expect(call.answer({ confirmed: true })).toEqual({ on: true, confirmed: true });
    expect(publishOf(device(PLUG), 'set', { on: false }).payload).toBe('{"state":"OFF"}');
  });

  it('a light keeps to its state: brightness and colour are named as left out, never sent', () => {
    const bulb = device(BULB);
    expect(bulb.path).toBe('z2m:kitchen/floor_light');
    expect(bulb.hello.device).toMatchObject({
      id: 'z2m_kitchen.floor_light',
      kind: 'light',
      firmware: 'ieee=0x90fd9ffffe6494fc build=1.3.009',
    });
    const call = publishOf(bulb, 'set', { on: true, brightness: 254 });
    expect(call.topic).toBe('zigbee2mqtt/kitchen/floor_light/set');
    expect(call.payload).toBe('{"state":"ON"}');
  });

  it('a device with several outputs takes `output` among their properties', () => {
    const stairs = device(TWO_GANG);
    expect(stairs.hello.tools[0]!.parameters).toEqual({
      type: 'object',
      properties: { output: { type: 'string', enum: ['state_left', 'state_right'] }, on: { type: 'boolean' } },
      required: ['output', 'on'],
    });
    const call = publishOf(stairs, 'set', { output: 'state_right', on: false });
    expect(call.payload).toBe('{"state_right":"OFF"}');
    expect(call.answer({ confirmed: true })).toEqual({ output: 'state_right', on: false, confirmed: true });
    expect(() => stairs.call('set', { on: true })).toThrow(/output must be one of state_left, state_right/);
  });

  it('with no state seen yet, read asks zigbee2mqtt/NAME/get for the values it can get, as documented', () => {
    const call = device(PLUG).call('read', {});
    if (call.kind !== 'last-state' || !call.otherwise) throw new Error('expected last-state with a /get');
    expect(call.otherwise).toMatchObject({
      kind: 'publish',
      topic: 'zigbee2mqtt/my_plug/get',
      payload: '{"state":"","power":""}',
    });
    expect(call.otherwise.expect?.matches({ state: 'ON', power: 3 })).toBe(true);
    expect(call.otherwise.expect?.matches({ state: 'ON' })).toBe(false);
    // A sleeping sensor (access 1) cannot be asked: its read waits for what it publishes.
    const sensorRead = device(CLIMATE_SENSOR).call('read', {});
    expect(sensorRead.kind === 'last-state' && sensorRead.otherwise).toBeFalsy();
  });

  it('a sensor only reads: its read answers from the last state with the values it exposes', () => {
    const sensor = device(CLIMATE_SENSOR);
    expect(sensor.hello.device.kind).toBe('sensor');
    expect(sensor.hello.tools).toHaveLength(1);
    expect(sensor.hello.tools[0]).toMatchObject({ name: 'read', readOnly: true, parallelSafe: true });
    expect(sensor.hello.tools[0]!.description).toContain('temperature (°C), humidity (%)');
    const call = sensor.call('read', {});
    if (call.kind !== 'last-state') throw new Error('expected last-state');
    expect(
      call.answer({
        state: { temperature: 27.34, humidity: 44.72, linkquality: 9 },
        receivedAt: new Date('2026-01-02T03:04:05Z'),
      }),
    ).toEqual({ temperature: 27.34, humidity: 44.72, as_of: '2026-01-02T03:04:05.000Z' });
    expect(() => sensor.call('set', { on: true })).toThrow(ToolError);
  });

  it('reads a state message as its JSON object, and availability in both documented forms', () => {
    const plug = device(PLUG);
    expect(plug.read('zigbee2mqtt/my_plug', Buffer.from('{"state":"ON","power":12}'))).toEqual({
      state: { state: 'ON', power: 12 },
    });
    expect(plug.read('zigbee2mqtt/my_plug', Buffer.from('not json'))).toBeUndefined();
    expect(plug.read('zigbee2mqtt/my_plug/availability', Buffer.from('offline'))).toEqual({
      online: false,
      source: 'zigbee2mqtt/my_plug/availability',
    });
    expect(z2mAvailability(Buffer.from('{"state":"online"}'))).toBe(true);
    expect(z2mAvailability(Buffer.from('{"state":"offline"}'))).toBe(false);
    expect(z2mAvailability(Buffer.from('maybe'))).toBeUndefined();
  });

  it('offers no lock, no coordinator and no unsupported device, saying why', () => {
    const { devices } = readBridgeDevices([LOCK, COORDINATOR]);
    expect(devices.map(z2mDevice)).toEqual([
      {
        ok: false,
        name: 'front_door',
        why: 'it exposes nothing Home Agent uses yet (lock); it uses switch and light states and published values',
      },
      { ok: false, name: 'Coordinator', why: 'it is the coordinator' },
    ]);
  });

  it('refuses a friendly name holding an MQTT wildcard', () => {
    const { devices } = readBridgeDevices([{ ...PLUG, friendly_name: 'plug/+' }]);
    expect(z2mDevice(devices[0]!)).toMatchObject({ ok: false, why: expect.stringContaining('wildcard') });
  });

  it('reads each entry of the list on its own: one malformed entry loses no other', () => {
    const { devices, skipped } = readBridgeDevices([PLUG, { friendly_name: 3 }, CLIMATE_SENSOR]);
    expect(devices.map((entry) => entry.friendly_name)).toEqual(['my_plug', 'hall sensor']);
    expect(skipped).toHaveLength(1);
    expect(readBridgeDevices({ not: 'a list' }).skipped).toEqual(['bridge/devices is not a JSON list']);
  });
});
