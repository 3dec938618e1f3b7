import { afterEach, describe, expect, it } from 'vitest';
import { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import type { DeviceEvent } from '../../../devices/registry/device-registry.ts';
import { startSimulatedDevices } from '../../../devices/simulator/start-simulated-devices.ts';
import { Disposables } from '../../helpers/pty-pair.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

describe('door sensor events', () => {
  it('reach registry listeners tagged with the device id, and the state reads back', async () => {
    const sim = owned.add(await startSimulatedDevices({ kinds: ['door_sensor'], latencyMs: 0 }));
    const registry = owned.add(
      new DeviceRegistry({ waysIn: builtinWaysIn(), helloTimeoutMs: 1000, reconnectIntervalMs: 20 }),
    );
    await registry.attach(sim.devices[0]!.path, { grant: 'all' });
    const events: DeviceEvent[] = [];
    const second = new Promise<void>((resolve) => registry.onEvent((event) => events.push(event) === 2 && resolve()));
    const model = sim.devices[0]!.firmware.model as unknown as { setOpen(open: boolean): void };
    model.setOpen(true);
    model.setOpen(false);
    await second;
    expect(events).toEqual([
      { deviceId: 'door_sensor-1', event: 'door', data: { open: true } },
      { deviceId: 'door_sensor-1', event: 'door', data: { open: false } },
    ]);
    expect(await registry.call('door_sensor-1', 'read', {})).toEqual({ open: false });
  });
});
