import { afterEach, expect, it } from 'vitest';
import { parseModbusProfile } from '../../../devices/modbus/modbus-profile-schema.ts';
import { runTool } from '../../helpers/device-tool-context.ts';
import {
  attachUnit,
  describeWithPymodbus,
  deviceTool,
  modbusRegistry,
  relayCoils,
  shippedProfile,
} from '../../helpers/modbus-rig.ts';
import { Disposables } from '../../helpers/pty-pair.ts';
import { startPymodbus } from '../../helpers/start-pymodbus.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

describeWithPymodbus('a relay-8 board against pymodbus', () => {
  it('switches a relay: the coil changes in the server’s own datastore, and read reports it', async () => {
    const peer = owned.add(await startPymodbus({ buses: [{ units: { 1: relayCoils() } }] }));
    const registry = owned.add(modbusRegistry());
    const id = await attachUnit(registry, { path: peer.paths[0]!, profile: shippedProfile('relay-8'), unit: 1 });
    const set = deviceTool(registry, 'relay__set');
    expect(set.needsApproval).toBe(true);

    expect(await runTool(set, { channel: 3, on: true })).toEqual({
      ok: true,
      value: { device_id: id, result: { channel: 3, on: true } },
    });
    const coils = await peer.command({ op: 'get', bus: 0, unit: 1, table: 'co', address: 0, count: 8 });
    expect(coils.values).toEqual([0, 0, 1, 0, 0, 0, 0, 0]);
    const read = await runTool(deviceTool(registry, 'relay__read'), {});
    expect(read).toMatchObject({ ok: true, value: { result: { relay_3: true, relay_4: false } } });

    await runTool(set, { channel: '3', on: 'false' });
    expect((await peer.command({ op: 'get', bus: 0, unit: 1, table: 'co', address: 2, count: 1 })).values).toEqual([0]);
    // write coil 2, then read it back (verify), per set.
    const functions = peer.log.filter((entry) => entry.event === 'request').map((entry) => entry.function);
    expect(functions.slice(-2)).toEqual([5, 1]);
  });

  it('reports a switch that does not take the command when its profile verifies it', async () => {
    // The state is read back from a discrete input that pymodbus never changes: the write "does not take".
    const profile = parseModbusProfile({
      protocol: 'modbus-rtu',
      name: 'Pump contactor',
      kind: 'pump',
      model: 'PC-1',
      switches: [{ name: 'pump', address: 0, verify: { input_type: 'discrete_input', address: 0 } }],
    });
    const peer = owned.add(await startPymodbus({ buses: [{ units: { 1: { co: { 0: false }, di: { 0: false } } } }] }));
    const registry = owned.add(modbusRegistry());
    const id = await attachUnit(registry, { path: peer.paths[0]!, profile, unit: 1 });
    // One switch: channel may be left out.
    expect(await runTool(deviceTool(registry, 'pump__set'), { on: true })).toEqual({
      ok: false,
      reason: 'failed',
      field: undefined,
      detail: `${id}: channel 1 reads off after switching it on`,
    });
    expect((await peer.command({ op: 'get', bus: 0, unit: 1, table: 'co', address: 0, count: 1 })).values).toEqual([1]);
  });

  it('switches a holding register with the profile’s on and off values', async () => {
    const profile = parseModbusProfile({
      protocol: 'modbus-rtu',
      name: 'Heat pump',
      kind: 'heat_pump',
      model: 'HP-2',
      switches: [
        { name: 'heating', address: 40, write_type: 'holding', command_on: 0x00aa, command_off: 0x0055, verify: {} },
      ],
    });
    const peer = owned.add(await startPymodbus({ buses: [{ units: { 4: { hr: { 40: 0x0055 } } } }] }));
    const registry = owned.add(modbusRegistry());
    const id = await attachUnit(registry, { path: peer.paths[0]!, profile, unit: 4 });
    expect(await registry.call(id, 'set', { channel: 1, on: true })).toEqual({ channel: 1, on: true });
    expect((await peer.command({ op: 'get', bus: 0, unit: 4, table: 'hr', address: 40, count: 1 })).values).toEqual([
      0xaa,
    ]);
    expect(await registry.call(id, 'read', {})).toEqual({ heating: true });
  });

  it('refuses a channel the board does not have, naming the device, before anything is sent', async () => {
    const peer = owned.add(await startPymodbus({ buses: [{ units: { 1: relayCoils() } }] }));
    const registry = owned.add(modbusRegistry());
    await attachUnit(registry, { path: peer.paths[0]!, profile: shippedProfile('relay-8'), unit: 1 });
    await peer.sync();
    const before = peer.log.length;
    expect(await runTool(deviceTool(registry, 'relay__set'), { channel: 9, on: true })).toMatchObject({
      ok: false,
      reason: 'type',
      field: 'channel',
      detail: expect.stringContaining('channel must be at most 8'),
    });
    await peer.sync();
    expect(peer.log.slice(before).filter((entry) => entry.event === 'request')).toEqual([]);
  });
});
