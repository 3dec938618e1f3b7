import { afterEach, describe, expect, it } from 'vitest';
import { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import { startInProcessDevices } from '../../../devices/simulator/start-in-process-devices.ts';
import { Disposables, waitForLog, waitForStatus } from '../../helpers/pty-pair.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

describe('startInProcessDevices', () => {
  it('serves the demo devices without socat, with deterministic ids', async () => {
    const sim = owned.add(startInProcessDevices({ kinds: ['lamp', 'lamp', 'thermometer', 'display'], latencyMs: 0 }));
    const registry = owned.add(new DeviceRegistry({ waysIn: builtinWaysIn(), reconnectIntervalMs: 10 }));
    for (const device of sim.devices) await registry.attachConnector(device.connector, { grant: 'all' });
    expect(registry.list().map((device) => `${device.id} ${device.kind} ${device.path} ${device.status}`)).toEqual([
      'display-1 display sim:display-1 online',
      'lamp-1 lamp sim:lamp-1 online',
      'lamp-2 lamp sim:lamp-2 online',
      'thermometer-1 thermometer sim:thermometer-1 online',
    ]);
    expect(await registry.call('lamp-2', 'set', { brightness: 5 })).toEqual({ on: false, brightness: 5 });
  });

  it('fails a call in flight on unplug and reconnects on replug', async () => {
    const sim = owned.add(startInProcessDevices({ kinds: ['lamp'], latencyMs: 0 }));
    const registry = owned.add(new DeviceRegistry({ waysIn: builtinWaysIn(), reconnectIntervalMs: 10 }));
    await registry.attachConnector(sim.devices[0]!.connector, { grant: 'all' });
    const session = registry.get('lamp-1')!.session;
    const release = sim.devices[0]!.firmware.hold();
    const call = registry.call('lamp-1', 'get', {});
    await waitForLog(sim.devices[0]!.firmware, (entry) => entry.type === 'start');
    await sim.unplug('lamp-1');
    await expect(call).rejects.toMatchObject({ reason: 'device_offline' });
    release();
    const online = waitForStatus(session, 'online');
    sim.replug('lamp-1');
    await online;
    expect(await registry.call('lamp-1', 'get', {})).toEqual({ on: false, brightness: 100 });
  });
});
