import { afterEach, describe, expect, it } from 'vitest';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createHost, type Host } from '../../../../host/app/create-host.ts';
import { ScriptedModel } from '../../../../core/models/scripted/scripted-model.ts';
import type { HostNotice } from '../../../../host/contract/api-contract.ts';
import { connectOverStdio, textOf, type ConnectedClient } from '../../../helpers/mcp-clients.ts';
import { startTestHost, tempDataDir } from '../../devices/host-rig.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Starting `home-agent mcp` with simulated devices takes seconds on a busy machine. */
const SLOW = 120_000;

function dataFolder(): string {
  const data = tempDataDir('home-agent-plugins-');
  cleanups.push(() => data.remove());
  return data.dir;
}

/** A host on the folder that looks at the store only when asked: an hour between looks of its own. */
async function quietHost(
  dataDir: string,
  transport: 'web' | 'tool-server',
): Promise<{ host: Host; notices: HostNotice[] }> {
  const host = await createHost({
    dataDir,
    transport,
    model: new ScriptedModel({ replies: [] }),
    storePollMs: 3_600_000,
    log: () => undefined,
    version: 'test',
  });
  cleanups.push(() => host.dispose());
  const notices: HostNotice[] = [];
  host.notices.subscribe((notice) => notices.push(notice));
  return { host, notices };
}

function toolNames(host: Host): string[] {
  return host.toolApi.list().map((tool) => tool.name);
}

/** Resolves at the next `notifications/tools/list_changed` the client is sent. */
function nextListChange(home: ConnectedClient): Promise<void> {
  return new Promise((resolve) =>
    home.client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
  );
}

describe('plugin state across hosts on one data folder', () => {
  it('applies a plugin turned off or on in another host before the next call and turn, with no waiting', async () => {
    const dataDir = dataFolder();
    const { host: window } = await quietHost(dataDir, 'web');
    const { host: served, notices } = await quietHost(dataDir, 'tool-server');
    expect(toolNames(served)).toContain('seq_save');

    expect(await window.handlers['plugins/set-enabled']({ name: 'sequences', enabled: false })).toEqual({
      applied: true,
    });
    // No timer ran (an hour between looks): the look made before the listing and the call saw it.
    expect(toolNames(served).filter((name) => name.startsWith('seq_'))).toEqual([]);
    const refused = await served.toolApi.call(
      { conversationId: 'c', caller: 'mcp', signal: AbortSignal.timeout(10_000) },
      'seq_save',
      { name: 'x', description: 'x', groups: [] },
    );
    expect(refused).toMatchObject({ ok: false, error: { reason: 'not_found' } });
    expect(JSON.stringify(refused)).toContain("the plugin 'sequences', which is turned off");
    // What a turn of the agent takes when it starts.
    expect(served.plugins.enabledPlugins().map((plugin) => plugin.name)).not.toContain('sequences');
    const listed = (await served.handlers['plugins/list']({})).plugins.find((plugin) => plugin.name === 'sequences');
    expect(listed?.enabled).toBe(false);
    expect(notices).toContainEqual({ type: 'plugins/changed' });

    await window.handlers['plugins/set-enabled']({ name: 'sequences', enabled: true });
    expect(toolNames(served)).toContain('seq_save');
  });
});

describe('home-agent mcp follows the plugin state a window changes', () => {
  it(
    'offers no tool of a plugin turned off in another process, refuses its call before the next one runs, and says list_changed',
    async () => {
      const dataDir = dataFolder();
      const { host: window } = await startTestHost({ dataDir });
      cleanups.push(() => window.dispose());
      const home = await connectOverStdio({ args: ['--sim', '--sim-latency-ms', '0', '--data-dir', dataDir] });
      cleanups.push(() => home.close());
      const before = (await home.client.listTools()).tools.map((tool) => tool.name);
      expect(before).toEqual(expect.arrayContaining(['lamp__set', 'lamp__get', 'seq_save', 'seq_run']));

      let changed = nextListChange(home);
      await window.handlers['plugins/set-enabled']({ name: 'devices', enabled: false });
      // Called at once, before any notice: the call itself looks at the store first.
      const refused = await home.call('lamp__set', { device_id: 'lamp-1', on: true });
      expect(refused.isError).toBe(true);
      expect(JSON.parse(textOf(refused))).toMatchObject({ error: { reason: 'not_found' } });
      expect(textOf(refused)).toContain("the plugin 'devices', which is turned off");
      await changed;
      const after = (await home.client.listTools()).tools.map((tool) => tool.name);
      expect(after.filter((name) => name.startsWith('lamp__'))).toEqual([]);
      expect(after).toContain('seq_save');

      changed = nextListChange(home);
      await window.handlers['plugins/set-enabled']({ name: 'sequences', enabled: false });
      await changed;
      expect((await home.client.listTools()).tools.map((tool) => tool.name)).not.toContain('seq_save');
      expect((await home.call('seq_save', { name: 'x', description: 'x', groups: [] })).isError).toBe(true);

      changed = nextListChange(home);
      await window.handlers['plugins/set-enabled']({ name: 'devices', enabled: true });
      await changed;
      const switched = await home.call('lamp__set', { device_id: 'lamp-1', on: true });
      expect(switched.structuredContent).toEqual({ device_id: 'lamp-1', result: { on: true, brightness: 100 } });
    },
    SLOW,
  );
});
