import { afterEach, describe, expect, it } from 'vitest';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Host } from '../../../../host/app/create-host.ts';
import { McpClients } from '../../../../host/plugins/mcp/mcp-clients.ts';
import type { AgentEvent } from '../../../../core/events/agent-event.ts';
import { everythingStdioEntry, isRunning, probeEntry } from '../../../helpers/mcp/mcp-test-servers.ts';
import {
  callTool,
  connectionOf,
  mcpDataDir,
  probeDeclarations,
  probeTool,
  runTurn,
  startMcpHost,
} from '../../../helpers/mcp/mcp-host-rig.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Listing = Awaited<ReturnType<Host['handlers']['plugins/list']>>;

/** Resolves with `plugins/list` once it satisfies `wanted`, looking at every `plugins/changed` notice (never a timer). */
function listingWhen(host: Host, wanted: (listing: Listing) => boolean): Promise<Listing> {
  return new Promise((resolve, reject) => {
    let done = false;
    const look = (): void => {
      void Promise.resolve(host.handlers['plugins/list']({})).then((listing) => {
        if (done || !wanted(listing)) return;
        done = true;
        stop();
        resolve(listing);
      }, reject);
    };
    const stop = host.notices.subscribe((notice) => {
      if (notice.type === 'plugins/changed') look();
    });
    look();
  });
}

/** Writes an mcp.json as an editor saves it: a new file renamed over the old one. */
function saveConfig(dataDir: string, servers: Record<string, unknown> | string): void {
  const file = path.join(dataDir, 'mcp.json');
  const next = `${file}.saving`;
  writeFileSync(next, typeof servers === 'string' ? servers : JSON.stringify({ mcpServers: servers }));
  renameSync(next, file);
}

const pluginOf = (listing: Listing, name: string) => listing.plugins.find((plugin) => plugin.name === name);

describe('mcp.json is followed while the app runs', () => {
  it('a server added starts and its tools are offered; removed, it is stopped and its plugin and tools are gone', async () => {
    const { host, dataDir, log } = await startMcpHost(cleanups, { servers: {}, approvalPolicy: 'allow' });
    expect(pluginOf(await host.handlers['plugins/list']({}), 'mcp-everything')).toBeUndefined();

    saveConfig(dataDir, { everything: everythingStdioEntry() });
    const added = await listingWhen(host, (listing) => pluginOf(listing, 'mcp-everything')?.status === 'ready');
    expect(pluginOf(added, 'mcp-everything')?.tools).toContain('mcp__everything__echo');
    expect(await callTool(host, 'mcp__everything__echo', { message: 'hi' })).toEqual({ ok: true, value: 'Echo: hi' });
    expect(log).toContainEqual(expect.stringMatching(/^mcp-everything: added from .*mcp\.json$/));
    const connection = connectionOf(host, 'mcp-everything');
    const pid = connection.pid()!;

    saveConfig(dataDir, {});
    const removed = await listingWhen(host, (listing) => pluginOf(listing, 'mcp-everything') === undefined);
    expect(removed.plugins.flatMap((plugin) => plugin.tools)).not.toContain('mcp__everything__echo');
    expect(await callTool(host, 'mcp__everything__echo', { message: 'hi' })).toMatchObject({
      ok: false,
      error: { reason: 'not_found' },
    });
    expect(host.pluginParts.of(McpClients)?.connection('mcp-everything')).toBeUndefined();
    await connection.stop(); // already stopping: resolves once its child is gone
    expect(isRunning(pid)).toBe(false);
    expect(log).toContainEqual(expect.stringContaining('mcp-everything: removed from'));
  });

  it('a malformed file keeps the last good servers and says why, in the log and the Plugins tab; fixed, the problem goes', async () => {
    const { host, dataDir, log } = await startMcpHost(cleanups, {
      servers: { everything: everythingStdioEntry() },
      approvalPolicy: 'allow',
    });
    saveConfig(dataDir, '{"mcpServers": {"everything": ');
    const broken = await listingWhen(host, (listing) => (listing.problems ?? []).length > 0);
    expect(broken.problems).toEqual([
      expect.stringMatching(
        /mcp\.json: could not be read as JSON .*; the MCP servers it gave before are kept until it is fixed$/,
      ),
    ]);
    expect(log).toContainEqual(broken.problems![0]);
    expect(pluginOf(broken, 'mcp-everything')).toMatchObject({ status: 'ready' });
    expect(await callTool(host, 'mcp__everything__echo', { message: 'still' })).toEqual({
      ok: true,
      value: 'Echo: still',
    });

    saveConfig(dataDir, { everything: everythingStdioEntry() });
    const fixed = await listingWhen(host, (listing) => listing.problems === undefined);
    expect(pluginOf(fixed, 'mcp-everything')).toMatchObject({ status: 'ready' });
  });

  it('a trusted server whose args change loses its trust and says so; one whose env changes keeps it', async () => {
    const { host, dataDir, log } = await startMcpHost(cleanups, { servers: {}, approvalPolicy: 'allow' });
    const one = probeDeclarations(dataDir, [probeTool('read', { annotations: { readOnlyHint: true } })]);
    const two = probeDeclarations(dataDir, [probeTool('read', { annotations: { readOnlyHint: true } })]);
    saveConfig(dataDir, { probe: probeEntry(one.file) });
    await listingWhen(host, (listing) => pluginOf(listing, 'mcp-probe')?.status === 'ready');
    await host.handlers['plugins/set-trusted']({ name: 'mcp-probe', trusted: true });

    const first = connectionOf(host, 'mcp-probe');
    saveConfig(dataDir, { probe: probeEntry(one.file, { PROBE_NOTE: 'env only' }) });
    const envChanged = await listingWhen(
      host,
      (listing) => connectionOf(host, 'mcp-probe') !== first && pluginOf(listing, 'mcp-probe')?.status === 'ready',
    );
    expect(pluginOf(envChanged, 'mcp-probe')).toMatchObject({ trusted: true });
    expect(log).toContainEqual(expect.stringContaining('mcp-probe: changed in'));

    saveConfig(dataDir, { probe: probeEntry(two.file) });
    const argsChanged = await listingWhen(host, (listing) => pluginOf(listing, 'mcp-probe')?.trusted === false);
    expect(pluginOf(argsChanged, 'mcp-probe')?.warnings).toContainEqual(
      expect.stringMatching(
        /^its command, args or URL changed in .*mcp\.json, so it is no longer trusted: trust it again/,
      ),
    );
    expect(log).toContainEqual(
      expect.stringMatching(/^mcp-probe: its command, args or URL changed in .*no longer trusted/),
    );

    // Trusted again, what it lost is said no more, also once the trust is taken back.
    for (const trusted of [true, false]) {
      await host.handlers['plugins/set-trusted']({ name: 'mcp-probe', trusted });
      const again = pluginOf(await host.handlers['plugins/list']({}), 'mcp-probe');
      expect(again?.trusted).toBe(trusted);
      expect((again?.warnings ?? []).filter((warning) => warning.includes('no longer trusted'))).toEqual([]);
    }
    // Changed back, it is still not trusted: the person trusts again what it starts.
    const second = connectionOf(host, 'mcp-probe');
    saveConfig(dataDir, { probe: probeEntry(one.file, { PROBE_NOTE: 'env only' }) });
    const back = await listingWhen(
      host,
      (listing) => connectionOf(host, 'mcp-probe') !== second && pluginOf(listing, 'mcp-probe')?.status === 'ready',
    );
    expect(pluginOf(back, 'mcp-probe')).toMatchObject({ trusted: false });
  });

  it('a server whose command, args or URL change loses the standing approvals of its tools, trusted or not', async () => {
    const call = { toolCalls: [{ name: 'mcp__probe__read', args: {} }] };
    const { host, dataDir, log } = await startMcpHost(cleanups, {
      servers: {},
      approvalPolicy: 'ask',
      replies: [call, { text: 'done' }, call, { text: 'done' }, call, { text: 'done' }],
    });
    const one = probeDeclarations(dataDir, [probeTool('read')]);
    const two = probeDeclarations(dataDir, [probeTool('read')]);
    saveConfig(dataDir, { probe: probeEntry(one.file) });
    await listingWhen(host, (listing) => pluginOf(listing, 'mcp-probe')?.status === 'ready');
    const asked = (events: AgentEvent[]) => events.filter((event) => event.type === 'approval/request').length;
    expect(asked(await runTurn(host, { approved: true, remember: true }))).toBe(1);
    expect(asked(await runTurn(host))).toBe(0);

    const first = connectionOf(host, 'mcp-probe');
    saveConfig(dataDir, { probe: probeEntry(two.file) });
    await listingWhen(
      host,
      (listing) => connectionOf(host, 'mcp-probe') !== first && pluginOf(listing, 'mcp-probe')?.status === 'ready',
    );
    expect(log).toContainEqual(
      expect.stringMatching(
        /^mcp-probe: its command, args or URL changed in .*\(the standing approvals of its tools were revoked\)$/,
      ),
    );
    expect(asked(await runTurn(host, { approved: false }))).toBe(1);
  });

  it('a change made while a turn runs applies after the turn: the turn’s call still reaches the server', async () => {
    const { host, dataDir } = await startMcpHost(cleanups, {
      servers: { everything: everythingStdioEntry() },
      approvalPolicy: 'ask',
      replies: [{ toolCalls: [{ name: 'mcp__everything__echo', args: { message: 'mid-turn' } }] }, { text: 'done' }],
    });
    const clients = host.pluginParts.of(McpClients)!;
    const events: AgentEvent[] = [];
    const stop = host.events.subscribe((event) => {
      events.push(event);
      if (event.type !== 'approval/request') return;
      // The turn waits for the person: the file is changed now, and answered once the change was seen.
      const seen = clients.configChanged.subscribe(() => {
        seen();
        void host.handlers['approval/answer']({ approvalId: event.approvalId!, approved: true });
      });
      saveConfig(dataDir, {});
    });
    cleanups.push(stop);
    const removed = listingWhen(host, (listing) => pluginOf(listing, 'mcp-everything') === undefined);
    await host.agent.runTurn({ conversationId: 'c-follow', text: 'go' });
    const end = events.find((event): event is Extract<AgentEvent, { type: 'tool/end' }> => event.type === 'tool/end');
    expect(end).toMatchObject({ ok: true, outcome: 'done', result: 'Echo: mid-turn' });
    await removed;
    expect(clients.connection('mcp-everything')).toBeUndefined();
  });
});

describe('following a config file given by --mcp-config', () => {
  it('the file gone keeps the last good servers and says so; back, the problem goes', async () => {
    const configFile = path.join(mcpDataDir(cleanups), 'servers.json');
    const { host } = await startMcpHost(cleanups, {
      servers: { everything: everythingStdioEntry() },
      configFile,
      approvalPolicy: 'allow',
    });
    rmSync(configFile);
    const gone = await listingWhen(host, (listing) => (listing.problems ?? []).length > 0);
    expect(gone.problems).toEqual([
      expect.stringMatching(
        /servers\.json: no such file .*; the MCP servers it gave before are kept until it is fixed$/,
      ),
    ]);
    expect(pluginOf(gone, 'mcp-everything')).toMatchObject({ status: 'ready' });
    writeFileSync(configFile, JSON.stringify({ mcpServers: { everything: everythingStdioEntry() } }));
    await listingWhen(host, (listing) => listing.problems === undefined);
  });
});
