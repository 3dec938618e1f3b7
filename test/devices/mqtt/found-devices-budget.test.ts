import { describe, expect, it } from 'vitest';
import { bridgedFamily } from '../../../devices/mqtt/bridged/bridged-family.ts';
import { BRIDGE_WIRE_VERSION } from '../../../devices/mqtt/bridged/bridge-wire.ts';
import { MAX_FOUND_DEVICES } from '../../../devices/mqtt/mqtt-device-family.ts';
import { TasmotaFamily } from '../../../devices/mqtt/tasmota/tasmota-family.ts';
import { Z2mFamily } from '../../../devices/mqtt/zigbee2mqtt/z2m-family.ts';

// A peer on the broker may announce without end; each family keeps at most MAX_FOUND_DEVICES
// (1,000, stated once), so a flood of announcements cannot hold unbounded memory.
function message(topic: string, payload: string | object): { topic: string; payload: Buffer; retain: boolean } {
  return { topic, payload: Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload)), retain: true };
}

describe('the found devices of a family are bounded', () => {
  it('is 1,000 per family', () => {
    expect(MAX_FOUND_DEVICES).toBe(1000);
  });

  it('keeps the first 1,000 Tasmota LWTs, ignores the rest, and still follows those it keeps', () => {
    const family = new TasmotaFamily();
    for (let index = 0; index < 1200; index++) family.receive(message(`tele/plug${index}/LWT`, 'Online'));
    expect(family.found()).toHaveLength(1000);
    expect(family.found().some((found) => found.path === 'tasmota:plug1100')).toBe(false);
    family.receive(message('tele/plug5/LWT', 'Offline'));
    expect(family.found().find((found) => found.path === 'tasmota:plug5')?.online).toBe(false);
    family.receive(message('tele/plug5/LWT', ''));
    family.receive(message('tele/plug1100/LWT', 'Online'));
    expect(family.found().some((found) => found.path === 'tasmota:plug1100')).toBe(true);
  });

  it('keeps the first 1,000 devices of one Zigbee2MQTT device list, offered or refused', () => {
    const family = new Z2mFamily();
    const plug = (index: number): object => ({
      ieee_address: `0x${index.toString(16)}`,
      type: 'Router',
      supported: true,
      friendly_name: `plug-${index}`,
      definition: {
        model: 'ZNCZ02LM',
        vendor: 'Xiaomi',
        exposes: [
          {
            type: 'switch',
            features: [
              { type: 'binary', name: 'state', property: 'state', value_on: 'ON', value_off: 'OFF', access: 7 },
            ],
          },
        ],
      },
    });
    const coordinator = {
      ieee_address: '0x0',
      type: 'Coordinator',
      network_address: 0,
      supported: false,
      friendly_name: 'Coordinator',
      definition: null,
    };
    const list = [coordinator, ...Array.from({ length: 1199 }, (_, index) => plug(index + 1))];
    family.receive(message('zigbee2mqtt/bridge/devices', list));
    // The coordinator (refused) and plugs 1–999: 1,000 kept; plugs 1000–1199 ignored.
    expect(family.found()).toHaveLength(999);
    expect(family.refused()).toHaveLength(1);
    expect(family.found().some((found) => found.path === 'z2m:plug-1000')).toBe(false);
  });

  it('keeps the first 1,000 bridged descriptions and refuses the rest as malformed', () => {
    const family = bridgedFamily({ topicPrefix: 'home-agent', maxMessageBytes: 262144 });
    const description = (device: string) => ({
      v: BRIDGE_WIRE_VERSION,
      bridge: 'cellar',
      device,
      hello: {
        device: { id: `cellar.${device}`, kind: 'lamp', model: 'SimLamp 1', firmware: '1.0.0' },
        tools: [],
      },
      online: true,
    });
    const answers = [];
    for (let index = 0; index < 1001; index++)
      answers.push(
        family.receive(message(`home-agent/cellar/device/lamp-${index}/description`, description(`lamp-${index}`))),
      );
    expect(answers.slice(0, 1000).every((answer) => answer === undefined)).toBe(true);
    expect(answers[1000]).toEqual({ malformed: expect.stringContaining('more than 1000 devices') });
    expect(family.found()).toHaveLength(1000);
  });
});
