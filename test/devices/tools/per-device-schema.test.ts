import { afterEach, expect, it } from 'vitest';
import { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import { startSimulatedDevices } from '../../../devices/simulator/start-simulated-devices.ts';
import { runTool } from '../../helpers/device-tool-context.ts';
import {
  deviceTool,
  describeWithPymodbus,
  FAST_MODBUS,
  modbusProfile,
  relayCoils,
  shippedProfile,
} from '../../helpers/modbus-rig.ts';
import { Disposables } from '../../helpers/pty-pair.ts';
import { startPymodbus } from '../../helpers/start-pymodbus.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

describeWithPymodbus('one device tool over devices whose schemas differ', () => {
  it('checks relay__set against the addressed board’s own channels: 1–8 on relay-8, 1–4 on at-relay-4', async () => {
    const sim = owned.add(await startSimulatedDevices({ kinds: ['relay'], latencyMs: 0 }));
    const peer = owned.add(await startPymodbus({ buses: [{ units: { 1: relayCoils() } }] }));
    const registry = owned.add(new DeviceRegistry(FAST_MODBUS));
    const at = sim.devices[0]!;
    await registry.attach(at.path, {
      grant: 'all',
      profile: { protocol: 'lines', name: 'at-relay-4', profile: at.profile! },
    });
    const eight = (
      await registry.attach(peer.paths[0]!, {
        grant: 'all',
        profile: modbusProfile(shippedProfile('relay-8')),
        wayInOptions: { unit: 1 },
      })
    ).id;
    const set = deviceTool(registry, 'relay__set');
    // The kernel's own check lets through what either board takes; each board says what it takes.
    expect(set.parameters.properties?.channel).toEqual({ type: 'integer', minimum: 1, maximum: 8 });
    expect(set.description).toContain(`Arguments differ per device: relay-1: channel 1–4; ${eight}: channel 1–8.`);

    expect(await runTool(set, { device_id: eight, channel: 7, on: true })).toMatchObject({
      ok: true,
      value: { device_id: eight, result: { channel: 7, on: true } },
    });
    expect((await peer.command({ op: 'get', bus: 0, unit: 1, table: 'co', address: 6, count: 1 })).values).toEqual([1]);

    // Refused at the gate, before any approval is asked, naming the board and its limit.
    const refusal = await set.canUse!(
      { conversationId: 'c', caller: 'agent' },
      { device_id: 'relay-1', channel: 7, on: true },
    );
    expect(refusal?.toData()).toMatchObject({
      reason: 'type',
      field: 'channel',
      detail: 'relay__set on relay-1: channel must be at most 4, got number 7',
    });
    expect(at.firmware.log.filter((entry) => entry.type === 'start')).toEqual([]);
    expect(await runTool(set, { device_id: 'relay-1', channel: 4, on: true })).toMatchObject({ ok: true });
    expect(at.firmware.log.filter((entry) => entry.type === 'start')).toHaveLength(1);
  });
});
