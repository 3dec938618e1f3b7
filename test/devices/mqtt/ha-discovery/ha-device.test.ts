import { describe, expect, it } from 'vitest';
import { haDevice, type HaReading } from '../../../../devices/mqtt/ha-discovery/ha-device.ts';
import { haDiscoveryPlace } from '../../../../devices/mqtt/ha-discovery/ha-discovery-topic.ts';
import { parseHaValueTemplate } from '../../../../devices/mqtt/ha-discovery/ha-value-template.ts';
import type { ConventionDevice } from '../../../../devices/mqtt/conventions/convention-device.ts';
import { checkHello } from '../../../../devices/protocol/check-hello.ts';

// Configs shaped as Home Assistant documents them (integrations/mqtt: Discovery; switch.mqtt, light.mqtt, sensor.mqtt).
function reading(topic: string, config: unknown): HaReading {
  const place = haDiscoveryPlace(topic);
  if (!place) throw new Error(`not a discovery topic: ${topic}`);
  return haDevice(place, Buffer.from(typeof config === 'string' ? config : JSON.stringify(config)));
}

function device(topic: string, config: unknown): ConventionDevice {
  const read = reading(topic, config);
  if (!read.ok) throw new Error('removed' in read && read.removed ? 'removed' : (read as { why: string }).why);
  return read.device;
}

const BEDROOM_SWITCH = {
  '~': 'home/bedroom/switch1',
  name: 'Bedroom Switch',
  uniq_id: 'bedroom_switch',
  stat_t: '~',
  cmd_t: '~/set',
  avty_t: '~/available',
  pl_on: 'ON',
  pl_off: 'OFF',
  dev: { ids: 'ea334450945afc', name: 'Bedroom', mf: 'Bla electronics', mdl: 'xya', sw: '1.0' },
};

describe('haDiscoveryPlace', () => {
  it('reads the component, the optional node and the object', () => {
    expect(haDiscoveryPlace('homeassistant/switch/bedroom/switch1/config')).toEqual({
      component: 'switch',
      node: 'bedroom',
      object: 'switch1',
      name: 'bedroom/switch1',
    });
    expect(haDiscoveryPlace('homeassistant/sensor/temp01ae/config')).toEqual({
      component: 'sensor',
      object: 'temp01ae',
      name: 'temp01ae',
    });
    expect(haDiscoveryPlace('homeassistant/sensor/a.b/config')).toBeUndefined();
    expect(haDiscoveryPlace('homeassistant/switch/config')).toBeUndefined();
    expect(haDiscoveryPlace('other/switch/a/config')).toBeUndefined();
  });
});

describe('haDevice', () => {
  it('expands abbreviations and ~, and makes a switch at ha:NODE/OBJECT with set and read', () => {
    const found = device('homeassistant/switch/bedroom/switch1/config', BEDROOM_SWITCH);
    expect(found.path).toBe('ha:bedroom/switch1');
    expect(found.hello.device).toEqual({
      id: 'ha_bedroom.switch1',
      kind: 'switch',
      model: 'Bla electronics xya',
      firmware: '1.0',
    });
    expect(checkHello(found.hello).ok).toBe(true);
    expect(found.topics).toEqual(['home/bedroom/switch1', 'home/bedroom/switch1/available']);
    const call = found.call('set', { on: true });
    expect(call).toMatchObject({ kind: 'publish', topic: 'home/bedroom/switch1/set', payload: 'ON' });
    if (call.kind !== 'publish') throw new Error('expected a publish');
    expect(call.expect?.matches({ value: 'ON' })).toBe(true);
    expect(call.expect?.matches({ value: 'OFF' })).toBe(false);
  });

  it('sends payload_on/off and compares with state_on/off when they differ (ESPEasy GPIO example)', () => {
    const gpio = device('homeassistant/switch/bathroom/gpio13/config', {
      name: 'bathroom',
      state_topic: 'home/bathroom/gpio/13',
      command_topic: 'home/bathroom/gpio/13/set',
      payload_on: '1',
      payload_off: '0',
      state_on: 'high',
      state_off: 'low',
    });
    const call = gpio.call('set', { on: false });
    expect(call).toMatchObject({ payload: '0' });
    if (call.kind !== 'publish') throw new Error('expected a publish');
    expect(call.expect?.matches({ value: 'low' })).toBe(true);
    expect(call.expect?.matches({ value: '0' })).toBe(false);
  });

  it('a switch without a state topic completes unconfirmed: no expectation, and its set says so', () => {
    const blind = device('homeassistant/switch/porch/config', { command_topic: 'porch/set' });
    const call = blind.call('set', { on: true });
    expect(call).toMatchObject({ kind: 'publish', topic: 'porch/set', payload: 'ON' });
    if (call.kind !== 'publish') throw new Error('expected a publish');
    expect(call.expect).toBeUndefined();
    expect(call.answer({ confirmed: false })).toEqual({ on: true, confirmed: false });
    expect(blind.hello.tools.map((tool) => tool.name)).toEqual(['set']);
    expect(blind.hello.tools[0]!.description).toContain('confirmed false');
  });

  it('reads a sensor through {{ value_json.temperature }}, as a number when it has a unit', () => {
    const sensor = device('homeassistant/sensor/bedroom/temperature/config', {
      device_class: 'temperature',
      unit_of_measurement: '°C',
      value_template: '{{ value_json.temperature}}',
      unique_id: 'temp01ae_t',
      state_topic: 'sensorBedroom/state',
    });
    expect(sensor.hello.device.kind).toBe('sensor');
    expect(sensor.hello.tools).toEqual([expect.objectContaining({ name: 'read', readOnly: true })]);
    expect(sensor.read('sensorBedroom/state', Buffer.from('{"temperature":"21.5","humidity":40}'))).toEqual({
      state: { value: 21.5 },
    });
    expect(sensor.read('sensorBedroom/state', Buffer.from('{"humidity":40}'))).toBeUndefined();
    const call = sensor.call('read', {});
    if (call.kind !== 'last-state') throw new Error('expected last-state');
    expect(call.answer({ state: { value: 21.5 }, receivedAt: new Date('2026-01-02T03:04:05Z') })).toEqual({
      value: 21.5,
      unit: '°C',
      as_of: '2026-01-02T03:04:05.000Z',
    });
  });

  it('a light compares its state with its payloads through state_value_template', () => {
    const light = device('homeassistant/light/office/rgb1/config', {
      command_topic: 'office/rgb1/light/switch',
      state_topic: 'office/rgb1/light/status',
      state_value_template: '{{ value_json.state }}',
      payload_on: 'on',
      payload_off: 'off',
    });
    expect(light.read('office/rgb1/light/status', Buffer.from('{"state":"on"}'))).toEqual({ state: { value: 'on' } });
    const call = light.call('set', { on: true });
    if (call.kind !== 'publish') throw new Error('expected a publish');
    expect(call.payload).toBe('on');
    expect(call.expect?.matches({ value: 'on' })).toBe(true);
  });

  it('reads availability from availability_topic and from an availability list', () => {
    const found = device('homeassistant/switch/bedroom/switch1/config', BEDROOM_SWITCH);
    expect(found.read('home/bedroom/switch1/available', Buffer.from('offline'))).toEqual({
      online: false,
      source: 'home/bedroom/switch1/available',
    });
    const listed = device('homeassistant/switch/x/config', {
      command_topic: 'x/set',
      availability: [{ t: 'x/avail', pl_avail: 'up', pl_not_avail: 'down' }],
      availability_mode: 'all',
    });
    expect(listed.availabilityMode).toBe('all');
    // As Home Assistant does: unavailable until an availability topic says otherwise; a device without one is available.
    expect(listed.onlineBeforeAvailability).toBe(false);
    expect(device('homeassistant/switch/y/config', { command_topic: 'y/set' }).onlineBeforeAvailability).toBe(true);
    expect(listed.read('x/avail', Buffer.from('up'))).toEqual({ online: true, source: 'x/avail' });
    expect(listed.read('x/avail', Buffer.from('online'))).toBeUndefined();
  });

  it('an empty payload removes the device', () => {
    expect(reading('homeassistant/switch/bedroom/switch1/config', '')).toEqual({ ok: false, removed: true });
  });

  it('does not offer what it would send or read wrongly, and says why', () => {
    const why = (topic: string, config: unknown): string => {
      const read = reading(topic, config);
      return read.ok || read.removed ? '' : read.why;
    };
    expect(why('homeassistant/lock/door/config', { command_topic: 'door/set' })).toMatch(/component 'lock'/);
    expect(why('homeassistant/device/kitchen/config', { cmps: {} })).toMatch(/device-based discovery/);
    expect(why('homeassistant/light/l/config', { schema: 'json', command_topic: 'l/set' })).toMatch(/'json' schema/);
    expect(why('homeassistant/switch/s/config', { command_topic: 's/set', command_template: '{{ value }}' })).toMatch(
      /command_template/,
    );
    expect(
      why('homeassistant/sensor/t/config', { state_topic: 't', value_template: '{{ value_json.t | float }}' }),
    ).toMatch(/beyond what this host reads/);
    expect(why('homeassistant/sensor/t/config', { unit_of_measurement: 'W' })).toMatch(/without a state_topic/);
    expect(why('homeassistant/switch/s/config', { command_topic: 's/+/set' })).toMatch(/wildcard/);
    expect(why('homeassistant/switch/s/config', '[1,2]')).toMatch(/not a JSON object/);
  });
});

describe('parseHaValueTemplate', () => {
  it('reads {{ value }} and a path into value_json, and nothing beyond', () => {
    expect(parseHaValueTemplate('{{ value }}')).toEqual({ kind: 'value' });
    expect(parseHaValueTemplate('{{value_json.a.b}}')).toEqual({ kind: 'json', path: ['a', 'b'] });
    expect(parseHaValueTemplate("{{ value_json['power'].x }}")).toEqual({ kind: 'json', path: ['power', 'x'] });
    expect(parseHaValueTemplate('{{ value_json.t | float }}')).toBeUndefined();
    expect(parseHaValueTemplate('{% if value %}ON{% endif %}')).toBeUndefined();
    expect(parseHaValueTemplate('{{ value * 2 }}')).toBeUndefined();
  });
});
