import { describe, expect, it } from 'vitest';
import { HaFamily } from '../../../devices/mqtt/ha-discovery/ha-family.ts';
import { TasmotaFamily } from '../../../devices/mqtt/tasmota/tasmota-family.ts';
import { Z2mFamily } from '../../../devices/mqtt/zigbee2mqtt/z2m-family.ts';

// What each family makes of its discovery messages, without a broker: the messages as the
// conventions document them, the families' `found()` as the scan lists it.
function message(topic: string, payload: string | object): { topic: string; payload: Buffer; retain: boolean } {
  return { topic, payload: Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload)), retain: true };
}

const plug = (name: string, ieee: string): object => ({
  ieee_address: ieee,
  type: 'Router',
  supported: true,
  friendly_name: name,
  definition: {
    model: 'ZNCZ02LM',
    vendor: 'Xiaomi',
    exposes: [
      {
        type: 'switch',
        features: [{ type: 'binary', name: 'state', property: 'state', value_on: 'ON', value_off: 'OFF', access: 7 }],
      },
    ],
  },
});

describe('Z2mFamily', () => {
  it('lists the devices of the latest bridge/devices, forgetting those that left', () => {
    const family = new Z2mFamily();
    expect(family.discoveryTopics()).toEqual(['zigbee2mqtt/bridge/devices', 'zigbee2mqtt/bridge/state']);
    family.receive(message('zigbee2mqtt/bridge/devices', [plug('a', '0x1'), plug('b', '0x2')]));
    expect(family.found().map((found) => [found.path, found.hello.device.id, found.online])).toEqual([
      ['z2m:a', 'z2m_a', true],
      ['z2m:b', 'z2m_b', true],
    ]);
    family.receive(message('zigbee2mqtt/bridge/devices', [plug('b', '0x2')]));
    expect(family.found().map((found) => found.path)).toEqual(['z2m:b']);
  });

  it('names a device it does not offer by the path it would have had, with the reason', () => {
    const family = new Z2mFamily();
    family.receive(
      message('zigbee2mqtt/bridge/devices', [
        plug('a', '0x1'),
        {
          ieee_address: '0x0',
          type: 'Coordinator',
          network_address: 0,
          supported: false,
          friendly_name: 'Coordinator',
          definition: null,
        },
      ]),
    );
    expect(family.refused()).toEqual([{ name: 'z2m:Coordinator', why: 'it is the coordinator' }]);
  });

  it('marks every device offline while the bridge says offline', () => {
    const family = new Z2mFamily();
    family.receive(message('zigbee2mqtt/bridge/devices', [plug('a', '0x1')]));
    family.receive(message('zigbee2mqtt/bridge/state', 'offline'));
    expect(family.found().map((found) => found.online)).toEqual([false]);
    family.receive(message('zigbee2mqtt/bridge/state', '{"state":"online"}'));
    expect(family.found().map((found) => found.online)).toEqual([true]);
  });

  it('offers neither of two names that make one id, saying why, whatever their order', () => {
    // `kitchen lamp` is z2m_kitchen-lamp-8152b3a3 (printf '%s' 'kitchen lamp' | sha256sum); a device named
    // exactly `kitchen-lamp-8152b3a3` is the clash made on purpose.
    for (const names of [
      ['kitchen lamp', 'kitchen-lamp-8152b3a3'],
      ['kitchen-lamp-8152b3a3', 'kitchen lamp'],
    ]) {
      const family = new Z2mFamily();
      family.receive(
        message(
          'zigbee2mqtt/bridge/devices',
          names.map((name, index) => plug(name, `0x${index}`)),
        ),
      );
      expect(family.found()).toEqual([]);
      expect(
        family
          .refused()
          .map((refused) => refused.why)
          .sort(),
      ).toEqual([
        'its id z2m_kitchen-lamp-8152b3a3 is also announced by z2m:kitchen lamp: neither is offered until one is renamed',
        'its id z2m_kitchen-lamp-8152b3a3 is also announced by z2m:kitchen-lamp-8152b3a3: neither is offered until one is renamed',
      ]);
    }
  });

  it('says a device list that is not JSON is malformed, and keeps what it had', () => {
    const family = new Z2mFamily();
    family.receive(message('zigbee2mqtt/bridge/devices', [plug('a', '0x1')]));
    expect(family.receive(message('zigbee2mqtt/bridge/devices', '[{'))).toEqual({
      malformed: 'zigbee2mqtt/bridge/devices: not JSON',
    });
    expect(family.found().map((found) => found.path)).toEqual(['z2m:a']);
  });
});

describe('TasmotaFamily', () => {
  it('finds a device by its LWT, follows Online and Offline, and forgets it when the LWT is cleared', () => {
    const family = new TasmotaFamily();
    expect(family.discoveryTopics()).toEqual(['tele/+/LWT']);
    family.receive(message('tele/hallswitch/LWT', 'Online'));
    expect(family.found().map((found) => [found.path, found.hello.device.id, found.online])).toEqual([
      ['tasmota:hallswitch', 'tasmota_hallswitch', true],
    ]);
    family.receive(message('tele/hallswitch/LWT', 'Offline'));
    expect(family.found().map((found) => found.online)).toEqual([false]);
    expect(family.receive(message('tele/hallswitch/LWT', 'Sleeping'))).toEqual({
      malformed: 'tele/hallswitch/LWT: neither Online nor Offline',
    });
    family.receive(message('tele/hallswitch/LWT', ''));
    expect(family.found()).toEqual([]);
  });
});

describe('HaFamily', () => {
  it('keeps one device per config, replaces it on a new config and removes it on an empty one', () => {
    const family = new HaFamily();
    expect(family.discoveryTopics()).toEqual(['homeassistant/+/+/config', 'homeassistant/+/+/+/config']);
    family.receive(message('homeassistant/switch/garden/pump/config', { command_topic: 'garden/pump/set' }));
    expect(family.found().map((found) => [found.path, found.hello.device.id, found.hello.tools.length])).toEqual([
      ['ha:garden/pump', 'ha_garden.pump', 1],
    ]);
    family.receive(
      message('homeassistant/switch/garden/pump/config', {
        command_topic: 'garden/pump/set',
        state_topic: 'garden/pump',
      }),
    );
    expect(family.found().map((found) => found.hello.tools.map((tool) => tool.name))).toEqual([['set', 'read']]);
    family.receive(message('homeassistant/switch/garden/pump/config', ''));
    expect(family.found()).toEqual([]);
  });

  it('offers neither of two components at one NODE/OBJECT (they would share a path)', () => {
    const family = new HaFamily();
    family.receive(message('homeassistant/switch/garden/pump/config', { command_topic: 'garden/pump/set' }));
    family.receive(message('homeassistant/sensor/garden/pump/config', { state_topic: 'garden/pump/power' }));
    expect(family.found()).toEqual([]);
    expect(family.refused().map((refused) => refused.why)).toEqual([
      expect.stringContaining('its path ha:garden/pump is also announced by sensor/garden/pump'),
      expect.stringContaining('its path ha:garden/pump is also announced by switch/garden/pump'),
    ]);
  });

  it('lists what it does not offer, with the reason', () => {
    const family = new HaFamily();
    family.receive(message('homeassistant/climate/hall/config', { mode_command_topic: 'x' }));
    expect(family.refused()).toEqual([
      { name: 'ha:hall (climate)', why: "the component 'climate' is not offered (only switch, light and sensor)" },
    ]);
  });
});
