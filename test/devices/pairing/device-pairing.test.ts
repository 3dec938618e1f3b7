import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryPairingStore } from '../../../devices/pairing/pairing-store.ts';
import { DevicePairing } from '../../../devices/pairing/device-pairing.ts';
import type { PairingCandidate } from '../../../devices/pairing/device-pairing.ts';
import { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import { startSimulatedDevices } from '../../../devices/simulator/start-simulated-devices.ts';
import { createDevicesPlugin } from '../../../devices/tools/devices-plugin.ts';
import { serialConnector } from '../../../devices/transport/serial-line-transport.ts';
import { runTool } from '../../helpers/device-tool-context.ts';
import { Disposables, waitForStatus } from '../../helpers/pty-pair.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

async function setUp() {
  const sim = owned.add(await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0 }));
  const registry = owned.add(
    new DeviceRegistry({ waysIn: builtinWaysIn(), helloTimeoutMs: 1000, reconnectIntervalMs: 20 }),
  );
  const store = new InMemoryPairingStore();
  const pairing = new DevicePairing({
    store,
    registry,
    now: () => 1000,
  });
  const plugin = createDevicesPlugin(registry);
  const tool = (name: string) => plugin.tools().find((candidate) => candidate.name === name);
  return { sim, registry, store, pairing, plugin, tool, path: sim.devices[0]!.path };
}

describe('DevicePairing', () => {
  it('shows the identity, stores the confirmed device with no grants, and offers no tool yet', async () => {
    const { registry, store, pairing, plugin, path } = await setUp();
    const shown: PairingCandidate[] = [];
    const paired = await pairing.pair({
      path,
      alias: 'Desk lamp',
      confirm: (candidate) => (shown.push(candidate), true),
    });
    expect(shown.map((candidate) => candidate.identity)).toEqual([
      { id: 'lamp-1', kind: 'lamp', model: 'SimLamp 1', firmware: '1.0.0' },
    ]);
    expect(paired).toMatchObject({ path, alias: 'Desk lamp', grants: [], pairedAt: 1000, confirmedIdentity: true });
    expect(store.get('lamp-1')?.tools.map((tool) => tool.name)).toEqual(['set', 'get']);
    expect(registry.list()).toMatchObject([{ id: 'lamp-1', alias: 'Desk lamp', grant: [] }]);
    expect(plugin.tools()).toEqual([]);
  });

  it('stores nothing when the user declines', async () => {
    const { registry, store, pairing, path } = await setUp();
    expect(await pairing.pair({ path, confirm: () => false })).toBeNull();
    expect(store.list()).toEqual([]);
    expect(registry.list()).toEqual([]);
  });

  it('grants, revokes and forgets', async () => {
    const { registry, store, pairing, tool, path } = await setUp();
    await pairing.pair({ path, confirm: () => true });
    await waitForStatus(registry.get('lamp-1')!.session, 'online');
    pairing.grant('lamp-1', ['get']);
    expect(tool('lamp__set')).toBeUndefined();
    expect(await runTool(tool('lamp__get')!, { device_id: 'lamp-1' })).toMatchObject({ ok: true });
    const get = tool('lamp__get')!;
    pairing.revoke('lamp-1', ['get']);
    expect(store.get('lamp-1')?.grants).toEqual([]);
    expect(await runTool(get, { device_id: 'lamp-1' })).toMatchObject({ ok: false, reason: 'unauthorized' });
    expect(() => pairing.grant('lamp-1', ['explode'])).toThrow(/no action explode/);
    expect(await pairing.forget('lamp-1')).toBe(true);
    expect(store.list()).toEqual([]);
    expect(registry.list()).toEqual([]);
    expect(await runTool(get, { device_id: 'lamp-1' })).toMatchObject({ ok: false, reason: 'unauthorized' });
  });

  it('distrusts a device whose firmware changed until the user re-confirms it', async () => {
    const { sim, registry, store, pairing, path } = await setUp();
    await pairing.pair({ path, confirm: () => true });
    pairing.grant('lamp-1', ['get', 'set']);
    const session = registry.get('lamp-1')!.session;
    await waitForStatus(session, 'online');
    const offline = waitForStatus(session, 'offline');
    await sim.unplug('lamp-1');
    await offline;
    sim.device('lamp-1').firmware.reflash('2.0.0');
    const online = waitForStatus(session, 'online');
    await sim.replug('lamp-1');
    await online;
    expect(registry.get('lamp-1')?.trusted).toBe(false);
    expect(await pairing.reconfirm('lamp-1', () => false)).toBe(false);
    expect(store.get('lamp-1')?.identity.firmware).toBe('1.0.0');
    const shown: PairingCandidate[] = [];
    expect(await pairing.reconfirm('lamp-1', (candidate) => (shown.push(candidate), true))).toBe(true);
    expect(shown[0]).toMatchObject({ identity: { firmware: '2.0.0' }, previousIdentity: { firmware: '1.0.0' } });
    expect(store.get('lamp-1')).toMatchObject({ identity: { firmware: '2.0.0' }, grants: ['get', 'set'] });
    expect(registry.get('lamp-1')?.trusted).toBe(true);
  });

  it('attaches paired devices at start-up, offline ones included, with their grants', async () => {
    const { sim, registry, store, path } = await setUp();
    store.save({
      path,
      alias: 'Hall',
      identity: { id: 'lamp-1', kind: 'lamp', model: 'SimLamp 1', firmware: '1.0.0' },
      tools: [],
      grants: ['get'],
      pairedAt: 1,
      confirmedIdentity: true,
      wayIn: 'serial',
    });
    store.save({
      path: `${path}-gone`,
      alias: 'Attic',
      identity: { id: 'lamp-9', kind: 'lamp', model: 'SimLamp 1', firmware: '1.0.0' },
      tools: [],
      grants: ['get'],
      pairedAt: 1,
      confirmedIdentity: true,
      wayIn: 'serial',
    });
    const pairing = new DevicePairing({ store, registry });
    await pairing.attachPaired();
    await waitForStatus(registry.get('lamp-1')!.session, 'online');
    expect(registry.list().map((device) => `${device.id} ${device.alias} ${device.status}`)).toEqual([
      'lamp-1 Hall online',
      'lamp-9 Attic connecting',
    ]);
    expect(await registry.call('lamp-1', 'get', {})).toEqual({ on: false, brightness: 100 });
    expect(sim.devices).toHaveLength(1);
  });
});

describe('DevicePairing and ids', () => {
  it('refuses to pair a device whose id another attached device has, storing nothing', async () => {
    const { registry, store, pairing } = await setUp();
    const other = owned.add(await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0 }));
    // Named on the command line: attached, not paired.
    await registry.attach(other.devices[0]!.path, { grant: 'all' });
    const second = owned.add(await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0 }));
    await expect(pairing.pair({ path: second.devices[0]!.path, confirm: () => true })).rejects.toThrow(
      `the device answers with id lamp-1, which the device at ${other.devices[0]!.path} already has`,
    );
    expect(store.list()).toEqual([]);
    expect(registry.list().map((device) => device.path)).toEqual([other.devices[0]!.path]);
  });

  it('pairs a device that moved to another port again there, letting go of the old one', async () => {
    const { registry, store, pairing, path } = await setUp();
    await pairing.pair({ path, confirm: () => true });
    const moved = owned.add(await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0 }));
    await pairing.pair({ path: moved.devices[0]!.path, confirm: () => true });
    expect(store.list().map((device) => device.path)).toEqual([moved.devices[0]!.path]);
    expect(registry.list().map((device) => [device.id, device.path])).toEqual([['lamp-1', moved.devices[0]!.path]]);
  });

  it('renames a paired device in the store and the registry', async () => {
    const { registry, store, pairing, path } = await setUp();
    await pairing.pair({ path, confirm: () => true });
    pairing.rename('lamp-1', 'Reading lamp');
    expect(store.get('lamp-1')?.alias).toBe('Reading lamp');
    expect(registry.list()[0]?.alias).toBe('Reading lamp');
  });
});

describe('DeviceRegistry and ids', () => {
  it('refuses a second device with an id already attached, even without waiting for its hello', async () => {
    const { registry, store, pairing, path } = await setUp();
    await pairing.pair({ path, confirm: () => true });
    const record = store.get('lamp-1')!;
    await expect(
      registry.attachConnector(serialConnector({ path: '/nonexistent/tty' }), {
        trustedIdentity: record.identity,
        waitOnlineMs: 0,
      }),
    ).rejects.toThrow(`device id lamp-1 is already attached at ${path}`);
    expect(registry.list()).toHaveLength(1);
  });
});
