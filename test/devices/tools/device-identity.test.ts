import { afterEach, describe, expect, it } from 'vitest';
import { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import { startSimulatedDevices } from '../../../devices/simulator/start-simulated-devices.ts';
import { createDevicesPlugin } from '../../../devices/tools/devices-plugin.ts';
import { runTool } from '../../helpers/device-tool-context.ts';
import { Disposables, waitForStatus } from '../../helpers/pty-pair.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

describe('a device whose identity changed', () => {
  it('is refused as unauthorized until the user trusts its new identity', async () => {
    const sim = owned.add(await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0 }));
    const registry = owned.add(
      new DeviceRegistry({ waysIn: builtinWaysIn(), helloTimeoutMs: 1000, reconnectIntervalMs: 20 }),
    );
    await registry.attach(sim.devices[0]!.path, { grant: 'all' });
    const plugin = createDevicesPlugin(registry);
    const get = plugin.tools().find((tool) => tool.name === 'lamp__get')!;
    expect(await runTool(get, { device_id: 'lamp-1' })).toMatchObject({ ok: true });

    const session = registry.get('lamp-1')!.session;
    const offline = waitForStatus(session, 'offline');
    await sim.unplug('lamp-1');
    await offline;
    sim.device('lamp-1').firmware.reflash('6.6.6');
    const online = waitForStatus(session, 'online');
    await sim.replug('lamp-1');
    await online;

    expect(registry.list()[0]).toMatchObject({ id: 'lamp-1', trusted: false, firmware: '1.0.0' });
    expect(await runTool(get, { device_id: 'lamp-1' })).toMatchObject({ ok: false, reason: 'unauthorized' });
    expect(await runTool(get, {})).toMatchObject({ ok: false, reason: 'unauthorized' });
    expect(plugin.tools()).toEqual([]);
    expect(sim.device('lamp-1').firmware.stats.calls).toBe(1);

    registry.trustCurrentIdentity('lamp-1');
    expect(registry.list()[0]).toMatchObject({ trusted: true, firmware: '6.6.6' });
    expect(await runTool(get, { device_id: 'lamp-1' })).toMatchObject({ ok: true });
  });
});
