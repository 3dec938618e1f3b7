// @vitest-environment happy-dom
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../../../renderer/api/api-client.ts';
import type { AppInfo } from '../../../../../host/contract/api-contract.ts';
import { createAppStore, type AppStore } from '../../../../../renderer/state/create-app-store.ts';
import { PluginList } from '../../../../../renderer/views/plugin-list.tsx';
import { AppStoreContext } from '../../../../../renderer/views/use-app-store.ts';
import { MemoryStorage } from '../../../helpers/memory-storage.ts';

(globalThis as Record<string, unknown>).IS_REACT_ACT_ENVIRONMENT = true;

// The Plugins tab reads only the store here: no call reaches the host.
const noHost = new Proxy({} as ApiClient, {
  get: (_target, name) => () => {
    throw new Error(`the Plugins tab called the API (${String(name)})`);
  },
});

const INFO: AppInfo = {
  version: 'test',
  transport: 'web',
  model: { label: 'Demo', scripted: true },
  dataDir: '/home/me/.local/share/home-agent',
};

let store: AppStore;
let root: Root;
let container: HTMLElement;

beforeEach(async () => {
  store = createAppStore({ api: noHost, storage: { local: new MemoryStorage(), session: new MemoryStorage() } });
  container = document.body.appendChild(document.createElement('div'));
  root = createRoot(container);
  await act(async () => {
    root.render(createElement(AppStoreContext.Provider, { value: store }, createElement(PluginList)));
  });
});

afterEach(async () => {
  await act(async () => root.unmount());
  container.remove();
});

const shown = (testId: string) => container.querySelector(`[data-testid="${testId}"]`)?.textContent;

describe('the Plugins tab: where MCP clients reach this home', () => {
  it('shows nothing of MCP clients when the server serves no MCP', () => {
    expect(container.querySelector('[data-testid="mcp-clients"]')).toBeNull();
  });

  it('shows the /mcp address and the MCP credential app/info gave, as text', async () => {
    await act(async () => {
      store.getState().setAppInfo({
        ...INFO,
        mcp: { url: 'http://127.0.0.1:8123/mcp', credential: 'mcp-credential-0123456789abcdef' },
      });
    });
    expect(shown('mcp-clients-url')).toBe('http://127.0.0.1:8123/mcp');
    expect(shown('mcp-clients-credential')).toBe('mcp-credential-0123456789abcdef');
    expect(shown('mcp-clients')).toContain('never answer approvals or grant');
    expect(container.querySelector('[data-testid="mcp-clients-problem"]')).toBeNull();
  });

  it('says why the credential cannot be shown when its file cannot be used', async () => {
    const problem = '/data/mcp-token can be read or written by other users (mode 0644)';
    await act(async () => {
      store.getState().setAppInfo({ ...INFO, mcp: { url: 'http://127.0.0.1:8123/mcp', problem } });
    });
    expect(shown('mcp-clients-problem')).toBe(problem);
    expect(container.querySelector('[data-testid="mcp-clients-credential"]')).toBeNull();
  });
});
