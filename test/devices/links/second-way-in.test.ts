import { afterEach, describe, expect, it } from 'vitest';
import { readWayInOptions } from '../../../devices/links/read-way-in-options.ts';
import { DevicePairing } from '../../../devices/pairing/device-pairing.ts';
import { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import { startInProcessDevices } from '../../../devices/simulator/start-in-process-devices.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';
import { openDatabase } from '../../../host/store/open-database.ts';
import { PairedDeviceStore } from '../../../host/store/paired-device-store.ts';
import { inProcessWayIn } from '../../helpers/in-process-way-in.ts';
import { Disposables, waitForStatus } from '../../helpers/pty-pair.ts';
import { TempStoreFolder } from '../../host/store/temp-store-folder.ts';

const owned = new Disposables();
let folder: TempStoreFolder | undefined;
afterEach(async () => {
  await owned.disposeAll();
  folder?.dispose();
});

describe('a way in the registry, pairing and the store have never heard of', () => {
  it('pairs two devices that share one path, stores them with their way in, and attaches them again after a restart', async () => {
    const sim = owned.add(startInProcessDevices({ kinds: ['lamp', 'lamp'], latencyMs: 0 }));
    const waysIn = [inProcessWayIn(sim), ...builtinWaysIn()];
    folder = new TempStoreFolder();
    const db = folder.own(openDatabase({ file: folder.file() }));
    const store = new PairedDeviceStore({ db, waysIn });
    const registry = owned.add(new DeviceRegistry({ waysIn, helloTimeoutMs: 1000, reconnectIntervalMs: 10 }));
    const pairing = new DevicePairing({ store, registry, now: () => 1000 });
    for (const device of ['lamp-2', 'lamp-1'])
      await pairing.pair({ path: 'sim', wayInOptions: { device }, confirm: () => true });

    expect(store.list().map((paired) => [paired.identity.id, paired.path, paired.wayIn, paired.options])).toEqual([
      ['lamp-1', 'sim', 'in-process', { device: 'lamp-1' }],
      ['lamp-2', 'sim', 'in-process', { device: 'lamp-2' }],
    ]);
    // Paired devices are attached as stored, without waiting: each comes online on its own.
    await waitForStatus(registry.get('lamp-1')!.session, 'online');
    await waitForStatus(registry.get('lamp-2')!.session, 'online');
    expect(registry.list().map((device) => [device.id, device.address, device.status])).toEqual([
      ['lamp-1', 'sim:lamp-1', 'online'],
      ['lamp-2', 'sim:lamp-2', 'online'],
    ]);
    // The store asks the way in whether two pairings may share the path: not as the same device.
    const lamp1 = store.get('lamp-1')!;
    expect(() => store.save({ ...lamp1, identity: { ...lamp1.identity, id: 'lamp-1-again' }, alias: 'again' })).toThrow(
      expect.objectContaining({ detail: expect.stringContaining('as the same simulated device lamp-1') }),
    );
    // …nor beside a device of another way in.
    expect(() =>
      store.save({ ...lamp1, identity: { ...lamp1.identity, id: 'lamp-3' }, wayIn: 'serial', options: {} }),
    ).toThrow(expect.objectContaining({ detail: expect.stringContaining('sim is paired with device lamp-1') }));

    pairing.grant('lamp-2', ['set']);
    expect(await registry.call('lamp-2', 'set', { on: true })).toEqual({ on: true, brightness: 100 });

    const restarted = owned.add(new DeviceRegistry({ waysIn, helloTimeoutMs: 1000, reconnectIntervalMs: 10 }));
    await registry.dispose();
    await new DevicePairing({ store, registry: restarted }).attachPaired();
    await waitForStatus(restarted.get('lamp-1')!.session, 'online');
    await waitForStatus(restarted.get('lamp-2')!.session, 'online');
    expect(restarted.list().map((device) => [device.id, device.address, device.grant])).toEqual([
      ['lamp-1', 'sim:lamp-1', []],
      ['lamp-2', 'sim:lamp-2', ['set']],
    ]);
  });

  it('checks typed options by that way in’s schema, naming the option and the values it takes', () => {
    const sim = owned.add(startInProcessDevices({ kinds: ['lamp', 'lamp'], latencyMs: 0 }));
    const waysIn = [inProcessWayIn(sim), ...builtinWaysIn()];
    expect(readWayInOptions(waysIn, { options: { device: 'lamp-2' } })).toEqual({ device: 'lamp-2' });
    expect(() => readWayInOptions(waysIn, { options: { device: 'lamp-9' } })).toThrow(
      "device must be lamp-1 or lamp-2, got 'lamp-9'",
    );
    // The Modbus way in's own schema: its enum and its literals, and a description where values are a range.
    expect(() => readWayInOptions(waysIn, { profile: 'relay-8', options: { parity: 'mark' } })).toThrow(
      "parity must be none, even or odd, got 'mark'",
    );
    expect(() => readWayInOptions(waysIn, { profile: 'relay-8', options: { stopbits: '3' } })).toThrow(
      "stopbits must be 1 or 2, got '3'",
    );
    expect(() => readWayInOptions(waysIn, { options: { baud: '9600' } })).toThrow(
      'unit, baud, parity and stopbits need a Modbus profile (profile=eastron-sdm120)',
    );
  });
});
