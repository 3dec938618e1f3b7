import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { attachDevices } from '../../../../host/devices/attach-devices.ts';
import { startSimulatedDevices } from '../../../../devices/simulator/start-simulated-devices.ts';
import { serveTestHost } from '../../../helpers/serve-test-host.ts';

const TOKEN = 'notice-token-0123456789abcdef';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('notices on the live stream', () => {
  it('tells every browser when a device goes away, when a plugin is toggled, and when a device announces something', async () => {
    const sim = await startSimulatedDevices({ kinds: ['lamp', 'door_sensor'], latencyMs: 0 });
    cleanups.push(() => sim.close());
    const { host, server } = await serveTestHost(cleanups, {
      dataDirPrefix: 'home-agent-notices-',
      token: TOKEN,
      notices: true,
      attachDevices: () =>
        attachDevices({
          sim: false,
          devices: sim.devices.map((device) => ({ path: device.path })),
          log: () => {},
          signal: new AbortController().signal,
        }),
    });
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}api/events?token=${TOKEN}`);
    cleanups.push(() => socket.close());
    const received: { type: string; [key: string]: unknown }[] = [];
    const waiters: (() => void)[] = [];
    socket.on('message', (data: Buffer) => {
      received.push(JSON.parse(data.toString()) as { type: string });
      for (const wake of waiters.splice(0)) wake();
    });
    await new Promise<void>((resolve) => socket.on('open', () => resolve()));
    const until = async (test: () => boolean): Promise<void> => {
      while (!test()) await new Promise<void>((resolve) => waiters.push(resolve));
    };

    await sim.unplug('lamp-1');
    await until(() => received.some((message) => message.type === 'devices/changed'));
    const { devices } = await host.handlers['devices/list']({});
    expect(devices.find((device) => device.id === 'lamp-1')?.online).toBe(false);

    await host.handlers['plugins/set-enabled']({ name: 'system', enabled: false });
    await until(() => received.some((message) => message.type === 'plugins/changed'));

    const door = sim.device('door_sensor-1').firmware.model as unknown as { setOpen(open: boolean): void };
    door.setOpen(true);
    await until(() => received.some((message) => message.type === 'device/event'));
    expect(received.find((message) => message.type === 'device/event')).toMatchObject({ deviceId: 'door_sensor-1' });
  });
});
