import { afterEach, describe, expect, it } from 'vitest';
import { startSimulatedDevices } from '../../../devices/simulator/start-simulated-devices.ts';
import { Disposables, openTestSession } from '../../helpers/pty-pair.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

describe('DeviceSession on its first connection', () => {
  it('lets a call made while the port is still opening wait for the hello instead of failing offline', async () => {
    const sim = owned.add(await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0 }));
    const session = owned.add(openTestSession(sim.devices[0]!.path));
    expect(session.status).toBe('connecting');
    await expect(session.call('set', { on: true })).resolves.toEqual({ on: true, brightness: 100 });
  });
});
