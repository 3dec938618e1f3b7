import { afterEach, describe, expect, it } from 'vitest';
import { DeviceSession } from '../../../devices/session/device-session.ts';
import { createLampModel } from '../../../devices/simulator/device-models.ts';
import { SimulatedFirmware } from '../../../devices/simulator/simulated-firmware.ts';
import { createMemoryLinePair } from '../../../devices/transport/memory-line-pair.ts';
import type { TransportConnector } from '../../../devices/transport/line-transport.ts';
import { startSimulatedDevices } from '../../../devices/simulator/start-simulated-devices.ts';
import { Disposables, openTestSession, waitForLog } from '../../helpers/pty-pair.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

describe('DeviceSession concurrency', () => {
  it('keeps one request in flight on a port that did not declare concurrency', async () => {
    const sim = owned.add(await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 30 }));
    const session = owned.add(openTestSession(sim.devices[0]!.path));
    await session.whenOnline({ timeoutMs: 5000 });
    await Promise.all([session.call('get', {}), session.call('set', { on: true }), session.call('get', {})]);
    // The device's own log: each call ends before the next one starts, in the order they were made.
    const log = sim.devices[0]!.firmware.log.map((entry) => `${entry.type}:${entry.tool}`);
    expect(log).toEqual(['start:get', 'end:get', 'start:set', 'end:set', 'start:get', 'end:get']);
  });

  it('runs calls to different ports at the same time', async () => {
    const sim = owned.add(await startSimulatedDevices({ kinds: ['lamp', 'lamp'], latencyMs: 0 }));
    const [first, second] = sim.devices as [(typeof sim.devices)[0], (typeof sim.devices)[0]];
    const sessions = [first, second].map((device) => owned.add(openTestSession(device.path)));
    await Promise.all(sessions.map((session) => session.whenOnline({ timeoutMs: 5000 })));
    const releases = [first.firmware.hold(), second.firmware.hold()];
    const calls = sessions.map((session) => session.call('get', {}));
    // Both devices start their call while both are held: neither port waited for the other.
    const starts = await Promise.all(
      [first, second].map((device) => waitForLog(device.firmware, (entry) => entry.type === 'start')),
    );
    for (const release of releases) release();
    await Promise.all(calls);
    const ends = [first, second].map((device) => device.firmware.log.find((entry) => entry.type === 'end')!);
    expect(Math.max(...starts.map((entry) => entry.seq))).toBeLessThan(Math.min(...ends.map((entry) => entry.seq)));
  });
});

describe('DeviceSession with a device that declares concurrency', () => {
  it('keeps several requests in flight on one port', async () => {
    const firmware = new SimulatedFirmware({
      id: 'lamp-1',
      model: { ...createLampModel(), concurrent: true },
      latencyMs: 0,
    });
    const connector: TransportConnector = {
      label: 'memory:lamp-1',
      waitUntilPresent: () => Promise.resolve(),
      async open(handlers) {
        const [deviceEnd, hostEnd] = createMemoryLinePair({ label: 'memory:lamp-1' });
        await firmware.connect((deviceHandlers) => deviceEnd.open(deviceHandlers));
        return hostEnd.open(handlers);
      },
    };
    const session = owned.add(new DeviceSession({ connector }));
    owned.add({ close: () => firmware.disconnect() });
    session.start();
    expect((await session.whenOnline({ timeoutMs: 5000 })).concurrent).toBe(true);
    const release = firmware.hold();
    const calls = [session.call('get', {}), session.call('get', {})];
    // Both requests reach the device while it holds the first: the session did not wait.
    await waitForLog(
      firmware,
      (entry) => entry.type === 'start' && firmware.log.filter((logged) => logged.type === 'start').length === 2,
    );
    release();
    await Promise.all(calls);
    expect(firmware.log.map((entry) => entry.type)).toEqual(['start', 'start', 'end', 'end']);
  });
});
