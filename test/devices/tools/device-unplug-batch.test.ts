import { afterEach, describe, expect, it } from 'vitest';
import { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import { startSimulatedDevices } from '../../../devices/simulator/start-simulated-devices.ts';
import { createDevicesPlugin } from '../../../devices/tools/devices-plugin.ts';
import { runTool } from '../../helpers/device-tool-context.ts';
import { Disposables, waitForLog, waitForStatus } from '../../helpers/pty-pair.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

describe('device tools across an unplug', () => {
  it('fails only the unplugged device of a parallel batch, then reconnects it by itself', async () => {
    const sim = owned.add(await startSimulatedDevices({ kinds: ['lamp', 'lamp', 'thermometer'], latencyMs: 0 }));
    const registry = owned.add(
      new DeviceRegistry({ waysIn: builtinWaysIn(), helloTimeoutMs: 1000, reconnectIntervalMs: 20 }),
    );
    for (const device of sim.devices) await registry.attach(device.path, { grant: 'all' });
    const tools = createDevicesPlugin(registry).tools();
    const tool = (name: string) => tools.find((candidate) => candidate.name === name)!;
    const lamp2 = sim.device('lamp-2');
    const releaseLamp2 = lamp2.firmware.hold();
    const batch = Promise.all([
      runTool(tool('lamp__set'), { device_id: 'lamp-1', on: true }, { index: 0 }),
      runTool(tool('lamp__set'), { device_id: 'lamp-2', on: true }, { index: 1 }),
      runTool(tool('thermometer__read'), { device_id: 'thermometer-1' }, { index: 2 }),
    ]);
    await waitForLog(lamp2.firmware, (entry) => entry.type === 'start');
    await sim.unplug('lamp-2');
    const results = await batch;
    expect(results[0]).toEqual({ ok: true, value: { device_id: 'lamp-1', result: { on: true, brightness: 100 } } });
    expect(results[1]).toMatchObject({ ok: false, reason: 'device_offline' });
    expect(results[2]).toEqual({
      ok: true,
      value: { device_id: 'thermometer-1', result: { celsius: 21.5, humidity: 45 } },
    });

    const session = registry.get('lamp-2')!.session;
    const back = waitForStatus(session, 'online');
    await sim.replug('lamp-2');
    await back;
    // Released only after the replug dropped the old connection, so the held set died with it: the lamp is still off.
    releaseLamp2();
    expect(await runTool(tool('lamp__get'), { device_id: 'lamp-2' })).toEqual({
      ok: true,
      value: { device_id: 'lamp-2', result: { on: false, brightness: 100 } },
    });
  });
});
