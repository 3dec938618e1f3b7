import { afterEach, describe, expect, it } from 'vitest';
import { startLoopbackHost, type LoopbackHost } from '../helpers/loopback-host.ts';
import { createLoopbackStore, waitForState } from '../helpers/loopback-store.ts';

const disposers: (() => void | Promise<void>)[] = [];

afterEach(async () => {
  for (const dispose of disposers.splice(0).reverse()) await dispose();
});

async function startHost(): Promise<LoopbackHost> {
  const host = await startLoopbackHost();
  disposers.push(() => host.close());
  host.routes['devices/list'] = () => ({ result: { devices: [] } });
  host.routes['plugins/list'] = () => ({ result: { plugins: [] } });
  host.routes['settings/get'] = () => ({ result: { settings: { model: 'llama3.1' } } });
  return host;
}

describe('showSideTab', () => {
  it('starts on the channels tab', async () => {
    const renderer = createLoopbackStore({ host: await startHost() });
    disposers.push(() => renderer.dispose());
    expect(renderer.store.getState().sideTab).toBe('channels');
  });

  it('re-reads what a tab shows when it is opened (another front end may have changed it)', async () => {
    const host = await startHost();
    const renderer = createLoopbackStore({ host });
    disposers.push(() => renderer.dispose());
    const { store } = renderer;
    store.getState().showSideTab('settings');
    await waitForState(store, (state) => state.settingsStatus === 'loaded');
    store.getState().showSideTab('plugins');
    await waitForState(store, (state) => state.pluginsStatus === 'loaded');
    store.getState().showSideTab('devices');
    await waitForState(store, (state) => state.devicesStatus === 'loaded');
    expect(store.getState().sideTab).toBe('devices');
    expect([...host.requests.keys()].sort()).toEqual([
      'devices/list',
      'plugins/list',
      'secrets/status',
      'settings/get',
    ]);
    expect(store.getState().settings).toEqual({ model: 'llama3.1' });
  });
});
