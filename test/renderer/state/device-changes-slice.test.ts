import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceSummary } from '../../../host/contract/api-contract.ts';
import { startLoopbackHost, type LoopbackHost } from '../helpers/loopback-host.ts';
import { createLoopbackStore, waitForState } from '../helpers/loopback-store.ts';

const disposers: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const dispose of disposers.splice(0).reverse()) await dispose();
});

const deskLamp: DeviceSummary = {
  id: 'lamp-1',
  alias: 'Desk lamp',
  kind: 'lamp',
  path: '/dev/ttyUSB0',
  online: true,
  tools: ['set', 'get'],
  source: 'paired',
  granted: [],
};

async function setup(): Promise<{ host: LoopbackHost; store: ReturnType<typeof createLoopbackStore>['store'] }> {
  const host = await startLoopbackHost();
  disposers.push(() => host.close());
  host.routes['devices/list'] = () => ({ result: { devices: [deskLamp] } });
  const renderer = createLoopbackStore({ host });
  disposers.push(() => renderer.dispose());
  await renderer.store.getState().refreshDevices();
  return { host, store: renderer.store };
}

describe('device changes', () => {
  it("sends one action's grant and shows what the host answered at once", async () => {
    const { host, store } = await setup();
    host.routes['devices/grant'] = () => ({ result: { deviceId: 'lamp-1', granted: ['set'] } });
    await store.getState().setActionAllowed('lamp-1', 'set', true);
    expect(host.requests.get('devices/grant')).toEqual([{ deviceId: 'lamp-1', actions: ['set'] }]);
    expect(store.getState().devices[0]?.granted).toEqual(['set']);
    expect(store.getState().deviceChanges['lamp-1']).toEqual({});
  });

  it('shows the host refusal beside the device and leaves the grants as they were', async () => {
    const { host, store } = await setup();
    host.routes['devices/revoke'] = () => ({ status: 404, message: 'lamp-1 is not paired' });
    await store.getState().revokeAllActions('lamp-1');
    expect(host.requests.get('devices/revoke')).toEqual([{ deviceId: 'lamp-1', all: true }]);
    expect(store.getState().deviceChanges['lamp-1']?.error).toBe('Could not revoke all actions: lamp-1 is not paired');
    expect(store.getState().devices[0]?.granted).toEqual([]);
  });

  it('sends nothing while a change to the same device is on its way', async () => {
    const { host, store } = await setup();
    let release!: () => void;
    let arrived!: () => void;
    const atHost = new Promise<void>((resolve) => (arrived = resolve));
    host.routes['devices/grant'] = () =>
      new Promise((resolve) => {
        release = () => resolve({ result: { deviceId: 'lamp-1', granted: ['get', 'set'] } });
        arrived();
      });
    const first = store.getState().allowAllActions('lamp-1');
    await waitForState(store, (state) => state.deviceChanges['lamp-1']?.pending === 'allow all actions');
    await store.getState().setActionAllowed('lamp-1', 'get', true);
    await atHost;
    release();
    await first;
    expect(host.requests.get('devices/grant')).toHaveLength(1);
  });
});
