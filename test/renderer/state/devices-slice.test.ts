import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceSummary } from '../../../host/contract/api-contract.ts';
import { event } from '../helpers/agent-events.ts';
import { startLoopbackHost, type LoopbackHost } from '../helpers/loopback-host.ts';
import { createLoopbackStore, waitForState } from '../helpers/loopback-store.ts';

const disposers: (() => void | Promise<void>)[] = [];

afterEach(async () => {
  for (const dispose of disposers.splice(0).reverse()) await dispose();
});

function lamp(online: boolean): DeviceSummary {
  return { id: 'lamp-1', alias: 'Desk lamp', kind: 'lamp', path: '/dev/ttyUSB0', online, tools: ['set', 'get'] };
}

async function startHost(): Promise<LoopbackHost> {
  const host = await startLoopbackHost();
  disposers.push(() => host.close());
  host.routes['app/info'] = () => ({
    result: { version: '0.1.0', transport: 'web', model: { label: 'Scripted', scripted: true }, dataDir: '/d' },
  });
  host.routes['conversations/list'] = () => ({ result: { conversations: [] } });
  host.routes['plugins/list'] = () => ({ result: { plugins: [] } });
  host.routes['settings/get'] = () => ({ result: { settings: {} } });
  return host;
}

describe('devices slice', () => {
  it('is read when the renderer starts and again when a turn ends', async () => {
    const host = await startHost();
    let online = true;
    host.routes['devices/list'] = () => ({ result: { devices: [lamp(online)] } });
    const renderer = createLoopbackStore({ host, bridge: true });
    disposers.push(() => renderer.dispose());
    const first = await waitForState(
      renderer.store,
      (state) => state.devicesStatus === 'loaded' && state.connection.status === 'open',
    );
    expect(first.devices).toEqual([lamp(true)]);
    await host.connections(1);
    online = false;
    host.broadcast(event({ type: 'turn/end', at: 5, reason: 'done' }));
    const after = await waitForState(renderer.store, (state) => state.devices[0]?.online === false);
    expect(after.devices).toEqual([lamp(false)]);
    expect(host.requests.get('devices/list')).toHaveLength(2);
  });

  it('keeps the newest answer when an older look-up answers last', async () => {
    const host = await startHost();
    const renderer = createLoopbackStore({ host });
    disposers.push(() => renderer.dispose());
    // A page's first answer tells its client the host takes its token; until then its calls wait for that one.
    await renderer.store.getState().refreshSettings();
    const pending: ((devices: DeviceSummary[]) => void)[] = [];
    let bothAsked: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => (bothAsked = resolve));
    host.routes['devices/list'] = () =>
      new Promise((resolve) => {
        pending.push((devices) => resolve({ result: { devices } }));
        if (pending.length === 2) bothAsked();
      });
    const older = renderer.store.getState().refreshDevices();
    const newer = renderer.store.getState().refreshDevices();
    await asked;
    pending[1]?.([lamp(false)]);
    await newer;
    pending[0]?.([lamp(true)]);
    await older;
    expect(renderer.store.getState().devices).toEqual([lamp(false)]);
  });

  it('says why when the host cannot list the devices', async () => {
    const host = await startHost();
    host.routes['devices/list'] = () => ({ status: 500, message: 'the device layer is down' });
    const renderer = createLoopbackStore({ host });
    disposers.push(() => renderer.dispose());
    await renderer.store.getState().refreshDevices();
    expect(renderer.store.getState()).toMatchObject({
      devicesStatus: 'failed',
      devicesError: 'Could not list the devices: the device layer is down',
    });
  });
});

describe('notices from the host', () => {
  it('re-reads the devices when the host says they changed, without a turn or a click', async () => {
    const host = await startHost();
    let online = true;
    host.routes['devices/list'] = () => ({ result: { devices: [lamp(online)] } });
    const renderer = createLoopbackStore({ host, bridge: true });
    disposers.push(() => renderer.dispose());
    await waitForState(
      renderer.store,
      (state) => state.devicesStatus === 'loaded' && state.connection.status === 'open',
    );
    await host.connections(1);
    online = false;
    host.broadcast(JSON.stringify({ type: 'devices/changed' }));
    const after = await waitForState(renderer.store, (state) => state.devices[0]?.online === false);
    expect(after.devices).toEqual([lamp(false)]);
  });

  it('shows what a device announces', async () => {
    const host = await startHost();
    host.routes['devices/list'] = () => ({ result: { devices: [] } });
    const renderer = createLoopbackStore({ host, bridge: true });
    disposers.push(() => renderer.dispose());
    await waitForState(renderer.store, (state) => state.connection.status === 'open');
    await host.connections(1);
    host.broadcast(
      JSON.stringify({ type: 'device/event', deviceId: 'door_sensor-1', event: 'door', data: { open: true } }),
    );
    const shown = await waitForState(renderer.store, (state) => state.notice !== null);
    expect(shown.notice).toBe('door_sensor-1: door {"open":true}');
  });
});
