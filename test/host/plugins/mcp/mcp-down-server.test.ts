import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createHost } from '../../../../host/app/create-host.ts';
import { ScriptedModel } from '../../../../core/models/scripted/scripted-model.ts';
import { MCP_READY_WAIT_MS } from '../../../../host/plugins/mcp/mcp-ready-wait.ts';
import type { AgentEvent } from '../../../../core/events/agent-event.ts';
import { TOOL_ORDER_REST } from '../../../../core/tools/order-tools.ts';
import { everythingStdioEntry, isRunning, startEverythingHttp } from '../../../helpers/mcp/mcp-test-servers.ts';
import {
  callTool,
  connectionOf,
  mcpDataDir,
  runTurn,
  startMcpHost,
  statusWhen,
} from '../../../helpers/mcp/mcp-host-rig.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const toolEnds = (events: AgentEvent[]) =>
  events.filter((event): event is Extract<AgentEvent, { type: 'tool/end' }> => event.type === 'tool/end');

const longCall = {
  toolCalls: [{ name: 'mcp__everything__trigger-long-running-operation', args: { duration: 30, steps: 3 } }],
};

describe('an MCP server that goes away', () => {
  it('killed mid-call over stdio: the call ends at once, device_offline, outcome unknown; the plugin shows failed', async () => {
    const { host, notices } = await startMcpHost(cleanups, {
      servers: { everything: everythingStdioEntry() },
      approvalPolicy: 'allow',
      replies: [longCall, { text: 'done' }],
    });
    const connection = connectionOf(host, 'mcp-everything');
    const pid = connection.pid()!;
    connection.sent.subscribe(() => process.kill(pid, 'SIGKILL'));
    notices.length = 0;
    const [end] = toolEnds(await runTurn(host));
    expect(end).toMatchObject({ ok: false, error: { reason: 'device_offline' }, outcome: 'unknown' });
    expect(notices).toContainEqual({ type: 'plugins/changed' });
    const { plugins } = await host.handlers['plugins/list']({});
    expect(plugins.find((plugin) => plugin.name === 'mcp-everything')).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('closed the connection'),
    });
  });

  it('killed mid-call over Streamable HTTP: the same, unknown once its request reached the server', async () => {
    const server = await startEverythingHttp();
    cleanups.push(() => server.kill());
    const { host } = await startMcpHost(cleanups, {
      servers: { everything: { url: server.url } },
      approvalPolicy: 'allow',
      replies: [longCall, { text: 'done' }],
    });
    connectionOf(host, 'mcp-everything').sent.subscribe(() => void server.kill());
    const [end] = toolEnds(await runTurn(host));
    expect(end).toMatchObject({ ok: false, error: { reason: 'device_offline' }, outcome: 'unknown' });
  });

  it('while down keeps its last tools offered (a toolOrder naming one still works), and calls fail at once, not sent', async () => {
    const { host } = await startMcpHost(cleanups, {
      servers: { everything: everythingStdioEntry() },
      approvalPolicy: 'allow',
      replies: [{ toolCalls: [{ name: 'mcp__everything__echo', args: { message: 'hi' } }] }, { text: 'done' }],
    });
    await host.handlers['settings/set']({ key: 'toolOrder', value: ['mcp__everything__echo', TOOL_ORDER_REST] });
    const connection = connectionOf(host, 'mcp-everything');
    process.kill(connection.pid()!, 'SIGKILL');
    await statusWhen(connection, ['failed']);
    const events = await runTurn(host);
    expect(events.find((event) => event.type === 'request/header')).toMatchObject({
      tools: expect.arrayContaining(['mcp__everything__echo']),
    });
    const [end] = toolEnds(events);
    expect(end).toMatchObject({ ok: false, error: { reason: 'device_offline' }, outcome: 'not_sent' });
    expect(events.at(-1)).toMatchObject({ type: 'turn/end', reason: 'done' });
    // It comes back by itself.
    expect(await statusWhen(connection, ['ready'])).toBe('ready');
    expect(await callTool(host, 'mcp__everything__echo', { message: 'back' })).toEqual({
      ok: true,
      value: 'Echo: back',
    });
  });

  it('refuses a call to it while it is down before anyone is asked to approve it: not sent, in the words of MCP', async () => {
    const { host } = await startMcpHost(cleanups, {
      servers: { everything: everythingStdioEntry() },
      approvalPolicy: 'ask',
      replies: [{ toolCalls: [{ name: 'mcp__everything__echo', args: { message: 'hi' } }] }, { text: 'done' }],
    });
    const connection = connectionOf(host, 'mcp-everything');
    process.kill(connection.pid()!, 'SIGKILL');
    await statusWhen(connection, ['failed']);
    const events = await runTurn(host);
    expect(events.filter((event) => event.type === 'approval/request')).toEqual([]);
    const [end] = toolEnds(events);
    expect(end).toMatchObject({ ok: false, error: { reason: 'device_offline' }, outcome: 'not_sent' });
    expect(end?.error?.detail).toMatch(
      /^the MCP server mcp-everything is not connected .*: nothing was sent to it, so mcp__everything__echo did not run$/,
    );
  });

  it('offers the tools an earlier run listed when it cannot be started at all', async () => {
    const dataDir = mcpDataDir(cleanups);
    const first = await startMcpHost(cleanups, { dataDir, servers: { everything: everythingStdioEntry() } });
    const listed = (await first.host.handlers['plugins/list']({})).plugins.find(
      (plugin) => plugin.name === 'mcp-everything',
    );
    await first.host.dispose();
    const broken = { ...everythingStdioEntry(), command: '/nonexistent/node' };
    const second = await startMcpHost(cleanups, { dataDir, servers: { everything: broken } });
    const plugin = (await second.host.handlers['plugins/list']({})).plugins.find(
      (entry) => entry.name === 'mcp-everything',
    );
    expect(plugin).toMatchObject({ status: 'failed', reason: expect.stringContaining('ENOENT') });
    expect(plugin?.tools).toEqual(listed?.tools);
  });

  it('turned off (its plugin disabled) stops its process; turned on starts it again', async () => {
    const { host } = await startMcpHost(cleanups, { servers: { everything: everythingStdioEntry() } });
    const connection = connectionOf(host, 'mcp-everything');
    expect(connection.status).toBe('ready');
    const pid = connection.pid()!;
    await host.handlers['plugins/set-enabled']({ name: 'mcp-everything', enabled: false });
    expect(connection.status).toBe('stopped');
    await connection.stop(); // already stopping: resolves once its child is gone
    expect(isRunning(pid)).toBe(false);
    const { plugins } = await host.handlers['plugins/list']({});
    expect(plugins.find((plugin) => plugin.name === 'mcp-everything')).not.toHaveProperty('status');
    await host.handlers['plugins/set-enabled']({ name: 'mcp-everything', enabled: true });
    expect(await statusWhen(connection, ['ready'])).toBe('ready');
  });
});

describe('waiting for MCP servers before the first request', () => {
  it('ends when each is ready or failed, or at the bound, naming those still starting (the run goes on)', async () => {
    const dataDir = mcpDataDir(cleanups);
    writeFileSync(
      path.join(dataDir, 'mcp.json'),
      JSON.stringify({
        mcpServers: {
          everything: everythingStdioEntry(),
          // Starts and never answers `initialize`.
          silent: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 60_000)'] },
          broken: { command: '/nonexistent/node' },
        },
      }),
    );
    const host = await createHost({
      dataDir,
      transport: 'web',
      model: new ScriptedModel({ replies: [] }),
      mcpEnvironment: {},
      // A start deadline of its own (the default, a minute, leaves room for npx to download a server).
      settings: { mcpStartTimeoutMs: 3_000 },
      log: () => {},
      version: 'test',
    });
    cleanups.push(() => host.dispose());
    const everything = connectionOf(host, 'mcp-everything');
    const broken = connectionOf(host, 'mcp-broken');
    const silent = connectionOf(host, 'mcp-silent');
    await Promise.all([everything.whenSettled(), broken.whenSettled()]);
    // A bound that has passed: the one still starting is named (ask logs it and goes on).
    expect(await host.pluginParts.whenSettled({ timeoutMs: 1 })).toEqual(['mcp-silent']);
    expect([silent.status, silent.reason]).toEqual(['connecting', 'starting (a first start may download the server)']);
    // The wait ask makes ends when the silent one fails at its start deadline (mcpStartTimeoutMs), not before.
    expect(await host.pluginParts.whenSettled({ signal: AbortSignal.timeout(60_000) })).toEqual([]);
    expect([everything.status, broken.status, silent.status]).toEqual(['ready', 'failed', 'failed']);
    expect(silent.reason).toMatch(/^it did not answer within 3000 ms; starting it again in 1 s$/);
    expect(MCP_READY_WAIT_MS).toBe(10_000);
  }, 30_000);
});
