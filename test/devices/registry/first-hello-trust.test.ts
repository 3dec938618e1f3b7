import { afterEach, describe, expect, it } from 'vitest';
import { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import { startSimulatedDevices } from '../../../devices/simulator/start-simulated-devices.ts';
import { createDevicesPlugin } from '../../../devices/tools/devices-plugin.ts';
import { runTool } from '../../helpers/device-tool-context.ts';
import { Disposables } from '../../helpers/pty-pair.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

describe('DeviceRegistry.call during a paired device’s first connection', () => {
  it('refuses the call when the first hello shows another identity than the one paired, and sends nothing', async () => {
    const sim = owned.add(await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0 }));
    const registry = owned.add(
      new DeviceRegistry({ waysIn: builtinWaysIn(), helloTimeoutMs: 1000, reconnectIntervalMs: 20 }),
    );
    const tools = [
      {
        name: 'set',
        description: 'Switch the lamp',
        parameters: { type: 'object' as const, properties: { on: { type: 'boolean' as const } } },
        parallelSafe: true,
        serial: false,
      },
    ];
    // Paired as firmware 0.9; the simulated lamp says 1.0.0. Attached without waiting, as paired devices are.
    await registry.attach(sim.devices[0]!.path, {
      grant: 'all',
      trustedIdentity: { id: 'lamp-1', kind: 'lamp', model: 'SIM-LAMP', firmware: '0.9' },
      knownTools: tools,
      waitOnlineMs: 0,
    });
    expect(registry.get('lamp-1')?.session.status).toBe('connecting');
    // The gate passes (no hello yet to compare), and the call itself must not.
    const set = createDevicesPlugin(registry)
      .tools()
      .find((tool) => tool.name === 'lamp__set')!;
    expect(await runTool(set, { device_id: 'lamp-1', on: true })).toEqual({
      ok: false,
      reason: 'unauthorized',
      field: 'device_id',
      detail: 'lamp-1 answers with another identity than the one paired',
    });
    expect(sim.device('lamp-1').firmware.stats.calls).toBe(0);
  });
});
