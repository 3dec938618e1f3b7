import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceSummary } from '../../../host/contract/api-contract.ts';
import { startLoopbackHost, type LoopbackHost } from '../helpers/loopback-host.ts';
import { createLoopbackStore, waitForState } from '../helpers/loopback-store.ts';

const disposers: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const dispose of disposers.splice(0).reverse()) await dispose();
});

const lamp = (online: boolean): DeviceSummary => ({ id: 'lamp-1', alias: 'Desk lamp', kind: 'lamp', path: '/dev/ttyUSB0', online, tools: ['set'] });

async function startHost(): Promise<LoopbackHost> {
  const host = await startLoopbackHost();
  disposers.push(() => host.close());
  host.routes['app/info'] = () => ({ result: { version: '0.1.0', transport: 'web', model: { label: 'Scripted', scripted: true }, dataDir: '/d' } });
  host.routes['conversations/list'] = () => ({ result: { conversations: [] } });
  host.routes['plugins/list'] = () => ({ result: { plugins: [] } });
  host.routes['settings/get'] = () => ({ result: { settings: {} } });
  return host;
}

describe('notices from the host', () => {
  it('re-reads the devices when the host says they changed, without a turn or a click', async () => {
    const host = await startHost();
    let online = true;
    host.routes['devices/list'] = () => ({ result: { devices: [lamp(online)] } });
    const renderer = createLoopbackStore({ host, bridge: true });
    disposers.push(() => renderer.dispose());
    await waitForState(renderer.store, (state) => state.devicesStatus === 'loaded' && state.connection.status === 'open');
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
    host.broadcast(JSON.stringify({ type: 'device/event', deviceId: 'door_sensor-1', event: 'door', data: { open: true } }));
    const shown = await waitForState(renderer.store, (state) => state.notice !== null);
    expect(shown.notice).toBe('door_sensor-1: door {"open":true}');
  });
});
