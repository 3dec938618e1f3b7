import { afterEach, describe, expect, it } from 'vitest';
import { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import type { DeviceEvent } from '../../../devices/registry/device-registry.ts';
import { startSimulatedDevices } from '../../../devices/simulator/start-simulated-devices.ts';
import { Disposables } from '../../helpers/pty-pair.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

describe('the simulated lock', () => {
  it('says it is a lock whose set asks the person, locks and unlocks over a real port, and announces each change', async () => {
    const sim = owned.add(await startSimulatedDevices({ kinds: ['lock', 'door_sensor'], latencyMs: 0 }));
    const registry = owned.add(
      new DeviceRegistry({ waysIn: builtinWaysIn(), helloTimeoutMs: 1000, reconnectIntervalMs: 20 }),
    );
    await registry.attach(sim.devices[0]!.path, { grant: 'all' });
    const lock = registry.get('lock-1')!;
    expect(lock.trustedIdentity.kind).toBe('lock');
    expect(lock.tools.map((tool) => [tool.name, tool.confirm === true, tool.readOnly === true])).toEqual([
      ['set', true, false],
      ['get', false, true],
    ]);
    const events: DeviceEvent[] = [];
    const changed = new Promise<void>((resolve) => registry.onEvent((event) => events.push(event) === 1 && resolve()));
    expect(await registry.call('lock-1', 'get', {})).toEqual({ locked: true });
    expect(await registry.call('lock-1', 'set', { locked: false })).toEqual({ locked: false });
    await changed;
    expect(events).toEqual([{ deviceId: 'lock-1', event: 'lock', data: { locked: false } }]);
    // The door sensor beside it stays read-only.
    expect(sim.devices[1]!.firmware.model.tools.every((tool) => tool.readOnly === true)).toBe(true);
  });
});
