import { describe, expect, it } from 'vitest';
import { bridgeNameFromHostName, bridgeNameSchema } from '../../../../devices/mqtt/bridged/bridge-name.ts';
import { bridgedDeviceId, bridgedPath, parseBridgedPath } from '../../../../devices/mqtt/bridged/bridged-device-id.ts';
import { bridgeTopics, parseBridgeTopic } from '../../../../devices/mqtt/bridged/bridge-topics.ts';
import { signParts, verifyParts } from '../../../../devices/mqtt/bridged/sign-parts.ts';
import { ReplayWindow } from '../../../../devices/mqtt/bridged/replay-window.ts';
import { readWire, signedRequestSchema } from '../../../../devices/mqtt/bridged/bridge-wire.ts';
import { signRequest, verifyRequest } from '../../../../devices/mqtt/bridged/signed-messages.ts';

describe('bridge names', () => {
  it('accepts 1–32 of [a-z0-9-] starting with a letter or digit, and nothing else', () => {
    for (const name of ['a', 'cellar', 'pi-4', '0', 'a'.repeat(32)])
      expect(bridgeNameSchema.safeParse(name).success).toBe(true);
    for (const name of ['', 'Cellar', 'pi_4', 'pi.local', '-pi', 'a'.repeat(33), 'pi 4'])
      expect(bridgeNameSchema.safeParse(name).success).toBe(false);
  });

  it('makes a host name fit: its first label, lower case, other characters as -, at most 32', () => {
    expect(bridgeNameFromHostName('raspberrypi.local')).toBe('raspberrypi');
    expect(bridgeNameFromHostName('Boiler_Room Pi')).toBe('boiler-room-pi');
    expect(bridgeNameFromHostName('--x--')).toBe('x');
    expect(bridgeNameFromHostName('')).toBe('bridge');
    expect(bridgeNameFromHostName('ä')).toBe('bridge');
    expect(bridgeNameFromHostName(`${'a'.repeat(31)}-b`)).toBe('a'.repeat(31));
  });
});

describe('bridged device ids and paths', () => {
  it('names a device BRIDGE.ID and its path mqtt:BRIDGE/ID, and reads the path back', () => {
    expect(bridgedDeviceId({ bridge: 'cellar', device: 'lamp-1' })).toBe('cellar.lamp-1');
    expect(bridgedPath({ bridge: 'cellar', device: 'lamp-1' })).toBe('mqtt:cellar/lamp-1');
    expect(parseBridgedPath('mqtt:cellar/lamp-1')).toEqual({ bridge: 'cellar', device: 'lamp-1' });
  });

  it('refuses an id that would pass 64 characters, and paths of no bridge', () => {
    expect(bridgedDeviceId({ bridge: 'a'.repeat(32), device: 'b'.repeat(31) })).toBe(
      `${'a'.repeat(32)}.${'b'.repeat(31)}`,
    );
    expect(bridgedDeviceId({ bridge: 'a'.repeat(32), device: 'b'.repeat(32) })).toBeUndefined();
    for (const path of [
      'z2m:lamp',
      'mqtt:cellar',
      'mqtt:Cellar/lamp-1',
      'mqtt:cellar/lamp/1',
      'mqtt:cellar/+',
      'mqtt:cellar/#',
    ])
      expect(parseBridgedPath(path)).toBeUndefined();
  });
});

describe('bridge topics', () => {
  it('reads every topic of a bridge back into what it is about', () => {
    const topics = bridgeTopics('home-agent', 'cellar');
    expect(topics.request('lamp-1')).toBe('home-agent/cellar/device/lamp-1/request');
    expect(parseBridgeTopic('home-agent', topics.availability)).toEqual({ kind: 'availability', bridge: 'cellar' });
    expect(parseBridgeTopic('home-agent', topics.pair)).toEqual({ kind: 'pair', bridge: 'cellar' });
    expect(parseBridgeTopic('home-agent', topics.pairReply('0123456789abcdef'))).toEqual({
      kind: 'pairReply',
      bridge: 'cellar',
      host: '0123456789abcdef',
    });
    expect(parseBridgeTopic('home-agent', topics.description('pair'))).toEqual({
      kind: 'description',
      bridge: 'cellar',
      device: 'pair',
    });
    expect(parseBridgeTopic('home-agent', topics.grant('lamp-1', 'h'))).toEqual({
      kind: 'grant',
      bridge: 'cellar',
      device: 'lamp-1',
      host: 'h',
    });
    expect(parseBridgeTopic('home-agent', 'home-agent/cellar/device/lamp-1/other')).toBeUndefined();
    expect(parseBridgeTopic('home-agent', 'zigbee2mqtt/bridge/devices')).toBeUndefined();
  });
});

describe('signatures', () => {
  const key = Buffer.alloc(32, 7);

  it('holds for the same parts and fails when any part, the key or the mac changes', () => {
    const parts = ['request', 'cellar', 'lamp-1', 'host', 5, 'nonce', 'body'];
    const mac = signParts(key, parts);
    expect(verifyParts(key, parts, mac)).toBe(true);
    for (let index = 0; index < parts.length; index += 1) {
      const changed = [...parts];
      changed[index] = typeof changed[index] === 'number' ? 6 : `${changed[index]}x`;
      expect(verifyParts(key, changed, mac)).toBe(false);
    }
    expect(verifyParts(Buffer.alloc(32, 8), parts, mac)).toBe(false);
    expect(verifyParts(key, parts, mac.slice(1))).toBe(false);
  });

  it('binds a request to its device and its response topic: moved, it no longer verifies', () => {
    const route = { bridge: 'cellar', device: 'lamp-1', host: '0123456789abcdef' };
    const reply = { topic: 'home-agent/cellar/reply/0123456789abcdef', correlation: 'AQ' };
    const message = signRequest({ key, route, reply, frame: { id: 1, op: 'hello' }, now: 1000 });
    expect(readWire(signedRequestSchema, JSON.stringify(message), 10_000).ok).toBe(true);
    expect(verifyRequest({ key, route, reply, message })).toBe(true);
    expect(verifyRequest({ key, route: { ...route, device: 'lamp-2' }, reply, message })).toBe(false);
    expect(verifyRequest({ key, route, reply: { ...reply, topic: 'elsewhere' }, message })).toBe(false);
    expect(verifyRequest({ key, route, reply: { ...reply, correlation: 'Ag' }, message })).toBe(false);
    expect(verifyRequest({ key, route, reply, message: { ...message, ts: 1001 } })).toBe(false);
  });
});

describe('ReplayWindow', () => {
  it('admits a fresh nonce once and refuses it again within the window', () => {
    let now = 1_000_000;
    const window = new ReplayWindow({ windowMs: 30_000, now: () => now });
    expect(window.admit(now, 'a')).toEqual({ ok: true });
    expect(window.admit(now, 'a')).toMatchObject({ ok: false, why: 'replayed' });
    now += 29_000;
    expect(window.admit(now - 29_000, 'a')).toMatchObject({ ok: false, why: 'replayed' });
  });

  it('refuses a time more than the window behind or ahead of its clock, naming by how much', () => {
    const now = 1_000_000;
    const window = new ReplayWindow({ windowMs: 30_000, now: () => now });
    expect(window.admit(now - 30_000, 'edge')).toEqual({ ok: true });
    expect(window.admit(now - 45_000, 'old')).toMatchObject({
      ok: false,
      why: 'stale',
      detail: expect.stringContaining('45 s behind'),
    });
    expect(window.admit(now + 31_000, 'new')).toMatchObject({
      ok: false,
      why: 'stale',
      detail: expect.stringContaining('31 s ahead'),
    });
  });

  it('forgets a nonce only once no message with it could be fresh', () => {
    let now = 1_000_000;
    const window = new ReplayWindow({ windowMs: 30_000, now: () => now });
    expect(window.admit(now, 'a')).toEqual({ ok: true });
    now += 30_001;
    // Its time is now stale anyway: refused as such, never admitted again.
    expect(window.admit(now - 30_001, 'a')).toMatchObject({ ok: false, why: 'stale' });
  });

  it('refuses new messages once full instead of forgetting a nonce early', () => {
    const now = 1_000_000;
    const window = new ReplayWindow({ windowMs: 30_000, maxRemembered: 2, now: () => now });
    expect(window.admit(now, 'a').ok).toBe(true);
    expect(window.admit(now, 'b').ok).toBe(true);
    expect(window.admit(now, 'c')).toMatchObject({ ok: false, why: 'busy' });
    expect(window.admit(now, 'a')).toMatchObject({ ok: false, why: 'replayed' });
  });
});
