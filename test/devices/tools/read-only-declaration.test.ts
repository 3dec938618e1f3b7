import { afterEach, describe, expect, it } from 'vitest';
import { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import { startSimulatedDevices } from '../../../devices/simulator/start-simulated-devices.ts';
import { createDevicesPlugin } from '../../../devices/tools/devices-plugin.ts';
import { modbusTools } from '../../../devices/modbus/modbus-tools.ts';
import { createToolApi } from '../../../core/batch/create-tool-api.ts';
import { declaredAction, startHostileDevice } from '../../helpers/hostile-device.ts';
import { shippedProfile } from '../../helpers/modbus-rig.ts';
import { Disposables } from '../../helpers/pty-pair.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

const fast = { helloTimeoutMs: 1000, reconnectIntervalMs: 20, callTimeoutMs: 3000, waysIn: builtinWaysIn() };

/** name → [readOnly, needsApproval], as the ToolAPI lists the devices plugin's tools. */
async function declarations(registry: DeviceRegistry): Promise<Record<string, [boolean, boolean]>> {
  const api = createToolApi({ tools: () => createDevicesPlugin(registry).tools() });
  return Object.fromEntries(api.list().map((tool) => [tool.name, [tool.readOnly, tool.needsApproval]]));
}

describe('readOnly on device tools', () => {
  it('is declared by the simulator’s and the AT relay profile’s read actions only, and listed explicitly (false included)', async () => {
    const sim = owned.add(await startSimulatedDevices({ kinds: ['lamp', 'thermometer', 'relay'], latencyMs: 0 }));
    const registry = owned.add(new DeviceRegistry(fast));
    for (const device of sim.devices)
      await registry.attach(device.path, {
        grant: 'all',
        ...(device.profile
          ? { profile: { protocol: 'lines' as const, name: device.id, profile: device.profile } }
          : {}),
      });
    expect(await declarations(registry)).toEqual({
      lamp__get: [true, false],
      lamp__set: [false, false],
      relay__get: [true, false],
      relay__set: [false, true],
      thermometer__read: [true, false],
    });
  });

  it('holds for a kind only when every device of it declares the action read-only', async () => {
    const sim = owned.add(await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0 }));
    // Another lamp whose get says nothing about reading only: it may change something.
    const other = owned.add(
      await startHostileDevice({
        id: 'lamp-9',
        kind: 'lamp',
        tools: [{ ...declaredAction('get'), parallelSafe: true }],
      }),
    );
    const registry = owned.add(new DeviceRegistry(fast));
    await registry.attach(sim.devices[0]!.path, { grant: 'all' });
    expect((await declarations(registry)).lamp__get).toEqual([true, false]);
    await registry.attach(other.path, { grant: 'all' });
    expect((await declarations(registry)).lamp__get).toEqual([false, false]);
  });

  it('is declared by a Modbus profile’s read, never by its set', () => {
    const tools = modbusTools(shippedProfile('relay-8'));
    expect(tools.map((tool) => [tool.name, tool.readOnly === true])).toEqual([
      ['read', true],
      ['set', false],
    ]);
  });
});
