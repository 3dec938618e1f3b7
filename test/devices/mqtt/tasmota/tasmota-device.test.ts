import { describe, expect, it } from 'vitest';
import {
  tasmotaDevice,
  tasmotaLwt,
  tasmotaPower,
  tasmotaTopicOf,
} from '../../../../devices/mqtt/tasmota/tasmota-device.ts';
import type { ConventionDevice } from '../../../../devices/mqtt/conventions/convention-device.ts';
import { checkHello } from '../../../../devices/protocol/check-hello.ts';

// Topics and payloads as Tasmota documents them (docs/MQTT.md: Command flow, LWT Topic; docs/Commands.md: Power).
function device(topic: string): ConventionDevice {
  const found = tasmotaDevice(topic);
  if (!found.ok) throw new Error(found.why);
  return found.device;
}

describe('tasmotaDevice', () => {
  it('is a switch at tasmota:TOPIC, its id by the one rule', () => {
    const plug = device('tasmota_switch');
    expect(plug.path).toBe('tasmota:tasmota_switch');
    expect(plug.hello.device).toEqual({ id: 'tasmota_tasmota_switch', kind: 'switch', model: 'Tasmota', firmware: '' });
    expect(checkHello(plug.hello).ok).toBe(true);
    expect(plug.hello.tools.map((tool) => [tool.name, tool.readOnly === true])).toEqual([
      ['set', false],
      ['read', true],
    ]);
  });

  it('set publishes exactly ON or OFF on cmnd/TOPIC/POWER and waits for that POWER', () => {
    const on = device('tasmota_switch').call('set', { on: true });
    expect(on).toMatchObject({ kind: 'publish', topic: 'cmnd/tasmota_switch/POWER', payload: 'ON' });
    if (on.kind !== 'publish') throw new Error('expected a publish');
    expect(on.expect?.matches({ POWER: 'ON' })).toBe(true);
    expect(on.expect?.matches({ POWER: 'OFF' })).toBe(false);
    expect(device('tasmota_switch').call('set', { on: false })).toMatchObject({ payload: 'OFF' });
  });

  it('read publishes the empty payload (a status query) and answers with the state reported', () => {
    const read = device('tasmota_switch').call('read', {});
    expect(read).toMatchObject({ kind: 'publish', topic: 'cmnd/tasmota_switch/POWER', payload: '' });
    if (read.kind !== 'publish') throw new Error('expected a publish');
    expect(read.expect?.matches({ POWER: 'OFF' })).toBe(true);
    expect(read.answer({ confirmed: true, state: { POWER: 'OFF' } })).toEqual({ on: false });
  });

  it('reads the power from RESULT, from POWER and from tele STATE, and nothing from another RESULT', () => {
    const plug = device('tasmota_switch');
    expect(plug.read('stat/tasmota_switch/RESULT', Buffer.from('{"POWER":"ON"}'))).toEqual({ state: { POWER: 'ON' } });
    expect(plug.read('stat/tasmota_switch/RESULT', Buffer.from('{"POWER1":"OFF"}'))).toEqual({
      state: { POWER: 'OFF' },
    });
    expect(plug.read('stat/tasmota_switch/POWER', Buffer.from('ON'))).toEqual({ state: { POWER: 'ON' } });
    expect(plug.read('tele/tasmota_switch/STATE', Buffer.from('{"Time":"2017-02-16T10:13:52","POWER":"OFF"}'))).toEqual(
      { state: { POWER: 'OFF' } },
    );
    expect(plug.read('stat/tasmota_switch/RESULT', Buffer.from('{"PowerOnState":3}'))).toBeUndefined();
    expect(tasmotaPower('RESULT', Buffer.from('garbage'))).toBeUndefined();
  });

  it('reads its LWT: Online and Offline, nothing else', () => {
    expect(device('tasmota_switch').read('tele/tasmota_switch/LWT', Buffer.from('Offline'))).toEqual({
      online: false,
      source: 'tele/tasmota_switch/LWT',
    });
    expect(tasmotaLwt(Buffer.from('Online'))).toBe(true);
    expect(tasmotaLwt(Buffer.from('online?'))).toBeUndefined();
  });

  it('finds the topic in tele/TOPIC/LWT only', () => {
    expect(tasmotaTopicOf('tele/hallswitch/LWT')).toBe('hallswitch');
    expect(tasmotaTopicOf('tele/a/b/LWT')).toBeUndefined();
    expect(tasmotaTopicOf('stat/hallswitch/LWT')).toBeUndefined();
  });
});
