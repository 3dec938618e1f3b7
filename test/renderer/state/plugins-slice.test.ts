import { afterEach, describe, expect, it } from 'vitest';
import { startLoopbackHost, type LoopbackHost } from '../helpers/loopback-host.ts';
import { createLoopbackStore } from '../helpers/loopback-store.ts';

const warning =
  "toolOrder lists 'system_list_tools', which only the plugin 'system' provides: every turn would fail at prompt assembly until toolOrder is changed.";
const disposers: (() => void | Promise<void>)[] = [];

afterEach(async () => {
  for (const dispose of disposers.splice(0).reverse()) await dispose();
});

/** A host with two plugins that, like the real one, refuses to disable `system` unless confirmed. */
async function startPluginHost(): Promise<LoopbackHost> {
  const host = await startLoopbackHost();
  disposers.push(() => host.close());
  const enabled = new Map([
    ['system', true],
    ['devices', true],
  ]);
  host.routes['plugins/list'] = () => ({
    result: {
      plugins: [
        {
          name: 'system',
          description: 'Lists the tools.',
          enabled: enabled.get('system'),
          tools: ['system_list_tools'],
        },
        { name: 'devices', description: 'Serial devices.', enabled: enabled.get('devices'), tools: ['lamp__set'] },
      ],
    },
  });
  host.routes['plugins/set-enabled'] = (body) => {
    const request = body as { name: string; enabled: boolean; confirm?: boolean };
    if (!enabled.has(request.name)) return { status: 404, message: `there is no plugin named '${request.name}'` };
    if (request.name === 'system' && !request.enabled && request.confirm !== true)
      return { result: { applied: false, warning } };
    enabled.set(request.name, request.enabled);
    return { result: { applied: true } };
  };
  return host;
}

function open(host: LoopbackHost) {
  const renderer = createLoopbackStore({ host });
  disposers.push(() => renderer.dispose());
  return renderer.store;
}

describe('plugins slice', () => {
  it('lists the host’s plugins', async () => {
    const store = open(await startPluginHost());
    await store.getState().refreshPlugins();
    expect(store.getState().plugins.map((plugin) => [plugin.name, plugin.enabled])).toEqual([
      ['system', true],
      ['devices', true],
    ]);
    expect(store.getState().pluginsStatus).toBe('loaded');
  });

  it('applies a harmless change at once and shows the plugin disabled', async () => {
    const host = await startPluginHost();
    const store = open(host);
    await store.getState().refreshPlugins();
    await store.getState().setPluginEnabled('devices', false);
    expect(host.requests.get('plugins/set-enabled')).toEqual([{ name: 'devices', enabled: false }]);
    expect(store.getState().pluginToggle).toEqual({ phase: 'idle' });
    expect(store.getState().plugins.find((plugin) => plugin.name === 'devices')?.enabled).toBe(false);
  });

  it('shows the host’s warning and, on Cancel, sends nothing more and keeps the plugin enabled', async () => {
    const host = await startPluginHost();
    const store = open(host);
    await store.getState().refreshPlugins();
    await store.getState().setPluginEnabled('system', false);
    expect(store.getState().pluginToggle).toEqual({ phase: 'warning', name: 'system', enabled: false, warning });
    store.getState().cancelPluginWarning();
    expect(store.getState().pluginToggle).toEqual({ phase: 'idle' });
    expect(host.requests.get('plugins/set-enabled')).toEqual([{ name: 'system', enabled: false }]);
    await store.getState().refreshPlugins();
    expect(store.getState().plugins.find((plugin) => plugin.name === 'system')?.enabled).toBe(true);
  });

  it('on Confirm sends the change again with confirm: true and shows the plugin disabled', async () => {
    const host = await startPluginHost();
    const store = open(host);
    await store.getState().refreshPlugins();
    await store.getState().setPluginEnabled('system', false);
    await store.getState().confirmPluginWarning();
    expect(host.requests.get('plugins/set-enabled')).toEqual([
      { name: 'system', enabled: false },
      { name: 'system', enabled: false, confirm: true },
    ]);
    expect(store.getState().pluginToggle).toEqual({ phase: 'idle' });
    expect(store.getState().plugins.find((plugin) => plugin.name === 'system')?.enabled).toBe(false);
  });

  it('keeps the host’s refusal beside the plugin it concerns', async () => {
    const store = open(await startPluginHost());
    await store.getState().setPluginEnabled('ghost', true);
    expect(store.getState().pluginToggle).toEqual({
      phase: 'idle',
      error: { name: 'ghost', message: "there is no plugin named 'ghost'" },
    });
  });

  it('trusts an MCP server’s plugin, and keeps a refusal beside the plugin it concerns', async () => {
    const host = await startPluginHost();
    let trusted = false;
    const requests: unknown[] = [];
    host.routes['plugins/set-trusted'] = (body) => {
      requests.push(body);
      const request = body as { name: string; trusted: boolean };
      if (request.name !== 'mcp-home') return { status: 400, message: `${request.name} is not an MCP server's plugin` };
      trusted = request.trusted;
      return { result: { trusted } };
    };
    const list = host.routes['plugins/list']!;
    host.routes['plugins/list'] = (body) => {
      const listed = list(body) as { result: { plugins: unknown[] } };
      return {
        result: {
          plugins: [
            ...listed.result.plugins,
            {
              name: 'mcp-home',
              description: 'MCP server',
              enabled: true,
              tools: [],
              status: 'ready',
              trusted,
              declarationHash: 'a'.repeat(64),
            },
          ],
          problems: ['mcp.json: the server "bad name" was refused'],
        },
      };
    };
    const store = open(host);
    await store.getState().refreshPlugins();
    expect(store.getState().pluginProblems).toEqual(['mcp.json: the server "bad name" was refused']);
    await store.getState().setPluginTrusted('mcp-home', true);
    expect(store.getState().pluginTrust).toEqual({});
    expect(store.getState().plugins.find((plugin) => plugin.name === 'mcp-home')?.trusted).toBe(true);
    // Trust names what the person was shown; taking it back needs no hash.
    await store.getState().setPluginTrusted('mcp-home', false);
    expect(requests).toEqual([
      { name: 'mcp-home', trusted: true, declarationHash: 'a'.repeat(64) },
      { name: 'mcp-home', trusted: false },
    ]);
    await store.getState().setPluginTrusted('system', true);
    expect(store.getState().pluginTrust).toEqual({
      error: { name: 'system', message: "system is not an MCP server's plugin" },
    });
  });
});
