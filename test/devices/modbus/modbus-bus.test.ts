import { afterEach, expect, it } from 'vitest';
import type { PeerLogEntry } from '../../helpers/start-pymodbus.ts';
import { startPymodbus } from '../../helpers/start-pymodbus.ts';
import { runTool } from '../../helpers/device-tool-context.ts';
import {
  attachUnit,
  describeWithPymodbus,
  deviceTool,
  meterRegisters,
  modbusRegistry,
  relayCoils,
  modbusProfile,
  shippedProfile,
} from '../../helpers/modbus-rig.ts';
import { Disposables, waitForStatus } from '../../helpers/pty-pair.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

/**
 * A meter at unit 1 and a relay board at unit 2 on one pymodbus bus, both attached with every tool
 * granted. The meter leaves the factory at 2400 baud and the board at 9600: on one bus the meter is
 * set to 9600, as a person would set it.
 */
async function twoUnitsOnOneBus() {
  const peer = owned.add(await startPymodbus({ buses: [{ units: { 1: meterRegisters(), 2: relayCoils() } }] }));
  const registry = owned.add(modbusRegistry());
  const path = peer.paths[0]!;
  const meter = await attachUnit(registry, {
    path,
    profile: shippedProfile('eastron-sdm120'),
    unit: 1,
    bus: { baud: 9600 },
  });
  const relay = await attachUnit(registry, { path, profile: shippedProfile('relay-8'), unit: 2 });
  return { peer, registry, path, meter, relay };
}

/** Every time the server got a request on `bus` while an earlier one there had no reply yet. */
function overlaps(log: readonly PeerLogEntry[], bus: number): string[] {
  const found: string[] = [];
  let open: PeerLogEntry | undefined;
  for (const entry of log.filter((line) => line.bus === bus)) {
    if (entry.event === 'request') {
      if (open) found.push(`unit ${entry.unit} function ${entry.function} arrived while unit ${open.unit} waited`);
      open = entry;
    } else if (entry.event === 'reply') open = undefined;
  }
  return found;
}

describeWithPymodbus('Modbus buses against pymodbus', () => {
  it('makes two units on one bus two devices sharing one port', async () => {
    const { registry, path, meter, relay } = await twoUnitsOnOneBus();
    expect(
      registry.list().map(({ id, path: port, address, kind, online }) => ({ id, port, address, kind, online })),
    ).toEqual(
      [
        { id: meter, port: path, address: `${path}#1`, kind: 'energy_meter', online: true },
        { id: relay, port: path, address: `${path}#2`, kind: 'relay', online: true },
      ].sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
    expect(meter).not.toBe(relay);
    expect(await registry.call(meter, 'read', {})).toMatchObject({ voltage_v: 229.8 });
    expect(await registry.call(relay, 'set', { channel: 8, on: true })).toEqual({ channel: 8, on: true });
  });

  it('never overlaps two units on one bus: in the server’s own log every request is answered before the next arrives', async () => {
    const { peer, registry, meter, relay } = await twoUnitsOnOneBus();
    // The server holds each reply a while, so a host that sent early would be caught in the log.
    await peer.command({ op: 'hold', bus: 0, ms: 40 });
    const from = peer.log.length;
    const read = deviceTool(registry, 'energy_meter__read');
    const set = deviceTool(registry, 'relay__set');
    const results = await Promise.all([
      runTool(read, { device_id: meter }, { index: 0 }),
      runTool(set, { device_id: relay, channel: 1, on: true }, { index: 1 }),
      runTool(read, { device_id: meter }, { index: 2 }),
      runTool(set, { device_id: relay, channel: 2, on: true }, { index: 3 }),
    ]);
    await peer.sync();
    const wire = peer.log.slice(from);
    expect(overlaps(wire, 0)).toEqual([]);
    expect(results.map((result) => result.ok)).toEqual([true, true, true, true]);
    // 5 reads per meter read, a write and its read-back per relay set, all of them on the wire.
    expect(wire.filter((entry) => entry.event === 'request')).toHaveLength(14);
    expect(new Set(wire.filter((entry) => entry.event === 'request').map((entry) => entry.unit))).toEqual(
      new Set([1, 2]),
    );
    expect(overlaps(wire, 0)).toEqual([]);
  });

  it('refuses a unit at other bus settings, and a plain device, on a port that is a Modbus bus', async () => {
    const { registry, path } = await twoUnitsOnOneBus();
    await expect(
      registry.attach(path, {
        profile: modbusProfile(shippedProfile('relay-8')),
        wayInOptions: { unit: 3, baud: 19_200 },
      }),
    ).rejects.toThrow(`${path} is a Modbus bus at 9600 8N1 already; a unit at 19200 8N1 cannot share it`);
    await expect(registry.attach(path, {})).rejects.toThrow(`${path} is a Modbus bus already`);
    await expect(
      registry.attach(path, { profile: modbusProfile(shippedProfile('relay-8')), wayInOptions: { unit: 2 } }),
    ).rejects.toThrow(`${path}#2 is already attached`);
    expect(registry.list()).toHaveLength(2);
  });

  it('takes every unit offline when the port is unplugged, fails their calls fast, and brings them back', async () => {
    const { peer, registry, meter, relay } = await twoUnitsOnOneBus();
    const meterLink = registry.get(meter)!.session;
    const relayLink = registry.get(relay)!.session;
    const offline = Promise.all([waitForStatus(meterLink, 'offline'), waitForStatus(relayLink, 'offline')]);
    await peer.unplug(0);
    await offline;
    await expect(registry.call(meter, 'read', {})).rejects.toMatchObject({ reason: 'device_offline' });
    expect(registry.list().map((device) => device.online)).toEqual([false, false]);

    const online = Promise.all([waitForStatus(meterLink, 'online'), waitForStatus(relayLink, 'online')]);
    await peer.replug(0);
    await online;
    expect(await registry.call(meter, 'read', {})).toMatchObject({ energy_kwh: 12_345.67 });
    expect(await registry.call(relay, 'set', { channel: 5, on: true })).toEqual({ channel: 5, on: true });
  });

  it('fails the transaction in flight with device_offline when the port goes away under it', async () => {
    const { peer, registry, meter } = await twoUnitsOnOneBus();
    await peer.command({ op: 'hold', bus: 0, ms: 60_000 });
    const from = peer.log.length;
    // Caught at once: it fails while the test is still pulling the plug.
    const reading = registry.call(meter, 'read', {}, { timeoutMs: 30_000 }).catch((error: unknown) => error);
    await peer.waitFor((entry) => entry.event === 'request', from);
    await peer.unplug(0);
    expect(await reading).toMatchObject({ reason: 'device_offline', detail: expect.stringContaining('port lost') });
  });
});
