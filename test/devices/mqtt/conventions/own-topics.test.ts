import { describe, expect, it } from 'vitest';
import { TopicBook } from '../../../../devices/mqtt/conventions/topic-book.ts';
import { HaFamily } from '../../../../devices/mqtt/ha-discovery/ha-family.ts';
import { Z2mFamily } from '../../../../devices/mqtt/zigbee2mqtt/z2m-family.ts';

// A discovered device publishes only under its own topics: what its announcement says is untrusted,
// so a command topic under another convention's control topics, Home Agent's own, the broker's, or
// another device's base topic is refused at discovery, with the reason the scan shows.
function message(topic: string, payload: object): { topic: string; payload: Buffer; retain: boolean } {
  return { topic, payload: Buffer.from(JSON.stringify(payload)), retain: true };
}

const plug = (name: string): object => ({
  ieee_address: `0x${name.length}`,
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

function haSwitch(family: HaFamily, object: string, config: object): void {
  family.receive(message(`homeassistant/switch/${object}/config`, config));
}

describe('a discovered device publishes only under its own topics', () => {
  it.each([
    ['zigbee2mqtt/bridge/request/device/remove', 'zigbee2mqtt/bridge/'],
    ['zigbee2mqtt/bridge/request/permit_join', 'zigbee2mqtt/bridge/'],
    ['homeassistant/switch/other/config', 'homeassistant/'],
    ['$SYS/broker/anything', '$SYS/'],
    ['house/agent/cellar/device/relay-1/request', 'house/agent/'],
  ])('refuses a discovery switch whose command_topic is %s, naming %s', (topic, root) => {
    const family = new HaFamily({ topicPrefix: 'house/agent' });
    haSwitch(family, 'porch', { command_topic: topic, payload_on: '{"id":"front_door_lock","force":true}' });
    expect(family.found()).toEqual([]);
    expect(family.refused()).toEqual([
      {
        name: 'ha:porch',
        why: `its command topic ${topic} is under ${root}, where no discovered device may publish (a device publishes only under its own topics)`,
      },
    ]);
  });

  it('refuses a discovery config whose command_topic is not under the base topic ~ it names', () => {
    const family = new HaFamily();
    haSwitch(family, 'porch', { '~': 'porch/light', cmd_t: 'garage/door/set' });
    haSwitch(family, 'hall', { '~': 'hall/light', cmd_t: '~/set' });
    expect(family.found().map((found) => found.path)).toEqual(['ha:hall']);
    expect(family.refused()).toEqual([
      { name: 'ha:porch', why: 'its command topic garage/door/set is not under its own base topic porch/light' },
    ]);
  });

  it("refuses a discovery switch publishing under a Zigbee2MQTT device's base topic, and offers it again once that device is gone", () => {
    const book = new TopicBook();
    const zigbee = new Z2mFamily({ topicBook: book });
    const discovery = new HaFamily({ topicBook: book });
    zigbee.receive(message('zigbee2mqtt/bridge/devices', [plug('front_door_lock')]));
    haSwitch(discovery, 'porch', { command_topic: 'zigbee2mqtt/front_door_lock/set', payload_on: 'UNLOCK' });
    expect(discovery.found()).toEqual([]);
    expect(discovery.refused()).toEqual([
      {
        name: 'ha:porch',
        why: 'its command topic zigbee2mqtt/front_door_lock/set is under zigbee2mqtt/front_door_lock/, the base topic of z2m:front_door_lock',
      },
    ]);
    // The Zigbee2MQTT device announced after the config refuses it too: what is offered does not depend on the order.
    const later = new TopicBook();
    const discoveryFirst = new HaFamily({ topicBook: later });
    haSwitch(discoveryFirst, 'porch', { command_topic: 'zigbee2mqtt/front_door_lock/set' });
    expect(discoveryFirst.found().map((found) => found.path)).toEqual(['ha:porch']);
    new Z2mFamily({ topicBook: later }).receive(message('zigbee2mqtt/bridge/devices', [plug('front_door_lock')]));
    expect(discoveryFirst.found()).toEqual([]);
    zigbee.receive(message('zigbee2mqtt/bridge/devices', []));
    expect(discovery.found().map((found) => found.path)).toEqual(['ha:porch']);
  });

  it("refuses a Zigbee2MQTT device whose name puts its topics under the bridge's or another device's", () => {
    const family = new Z2mFamily();
    family.receive(
      message('zigbee2mqtt/bridge/devices', [
        plug('kitchen'),
        plug('kitchen/lamp'),
        plug('bridge/request/device/remove'),
      ]),
    );
    expect(family.found().map((found) => found.path)).toEqual(['z2m:kitchen']);
    expect(family.refused()).toEqual([
      {
        name: 'z2m:kitchen/lamp',
        why: 'its command topic zigbee2mqtt/kitchen/lamp/set is under zigbee2mqtt/kitchen/, the base topic of z2m:kitchen',
      },
      {
        name: 'z2m:bridge/request/device/remove',
        why: 'its command topic zigbee2mqtt/bridge/request/device/remove/set is under zigbee2mqtt/bridge/, where no discovered device may publish (a device publishes only under its own topics)',
      },
    ]);
  });
});
