import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { McpConnection } from '../../../../host/plugins/mcp/mcp-connection.ts';
import type { McpServerConfig } from '../../../../host/plugins/mcp/mcp-config.ts';
import { ToolError } from '../../../../core/tools/tool-error.ts';
import { everythingOverStdio, probeOverStdio, startEverythingHttp } from '../../../helpers/mcp/mcp-test-servers.ts';
import { stderrWhen } from '../../../helpers/mcp/stderr-when.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A started connection to `server`, stopped after the test. */
async function connect(server: McpServerConfig, options: Partial<ConstructorParameters<typeof McpConnection>[0]> = {}) {
  const connection = new McpConnection({
    server,
    environment: {},
    maxMessageBytes: 4 * 1024 * 1024,
    version: 'test',
    log: () => {},
    ...options,
  });
  cleanups.push(() => connection.stop());
  connection.start();
  await connection.whenSettled();
  return connection;
}

/** A temp file of probe declarations; `write` replaces them. */
function declarationsFile(tools: unknown[], extra: Record<string, unknown> = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-probe-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'tools.json');
  const write = (next: unknown[], more: Record<string, unknown> = {}) =>
    writeFileSync(file, JSON.stringify({ tools: next, ...more }));
  write(tools, extra);
  return { file, write };
}

const tool = (name: string, more: Record<string, unknown> = {}) => ({
  name,
  description: `the ${name} tool`,
  inputSchema: { type: 'object', properties: {} },
  ...more,
});

/** Resolves with the status once the connection reaches one of `statuses` (on its change events, no timer). */
function statusWhen(connection: McpConnection, statuses: string[]): Promise<string> {
  return new Promise((resolve) => {
    if (statuses.includes(connection.status)) return resolve(connection.status);
    const stop = connection.changes.subscribe(() => {
      if (!statuses.includes(connection.status)) return;
      stop();
      resolve(connection.status);
    });
  });
}

/** Runs a call to completion; the ToolError it failed with, or its result. */
async function callOf(connection: McpConnection, tool: string, args: Record<string, unknown>, signal?: AbortSignal) {
  const sent: boolean[] = [];
  try {
    const result = await connection.call({
      tool,
      args,
      signal: signal ?? AbortSignal.timeout(15_000),
      onSent: () => sent.push(true),
    });
    return { result, sent: sent.length > 0 };
  } catch (error) {
    if (!ToolError.isInstance(error)) throw error;
    return { error: error.toData(), sent: sent.length > 0 };
  }
}

describe('an MCP server over stdio (server-everything)', () => {
  it('lists its tools with their read-only hints and answers echo and get-sum', async () => {
    const connection = await connect(everythingOverStdio());
    expect(connection.status).toBe('ready');
    const names = connection.tools.map((entry) => entry.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'mcp__everything__echo',
        'mcp__everything__get-sum',
        'mcp__everything__get-structured-content',
        'mcp__everything__get-tiny-image',
        'mcp__everything__trigger-long-running-operation',
      ]),
    );
    const echo = connection.tools.find((entry) => entry.original === 'echo');
    expect(echo).toMatchObject({ readOnlyHint: true, parameters: { type: 'object', required: ['message'] } });
    expect(JSON.stringify(echo?.parameters)).not.toContain('$schema');
    expect(connection.tools.find((entry) => entry.original === 'toggle-simulated-logging')?.readOnlyHint).toBe(false);
    expect(await callOf(connection, 'echo', { message: 'hi' })).toEqual({
      result: { content: [{ type: 'text', text: 'Echo: hi' }] },
      sent: true,
    });
    expect(await callOf(connection, 'get-sum', { a: 2, b: 3 })).toMatchObject({
      result: { content: [{ type: 'text', text: 'The sum of 2 and 3 is 5.' }] },
    });
  });

  it('ends a call at once with device_offline, after its request was sent, when the server is killed mid-call; then shows failed, fails calls at once, and restarts', async () => {
    const connection = await connect(everythingOverStdio());
    const pid = connection.pid()!;
    const sent = new Promise<void>((resolve) => connection.sent.subscribe(() => resolve()));
    const call = callOf(connection, 'trigger-long-running-operation', { duration: 30, steps: 3 });
    await sent;
    process.kill(pid, 'SIGKILL');
    expect(await call).toMatchObject({ error: { reason: 'device_offline' }, sent: true });
    expect(connection.status).toBe('failed');
    expect(connection.reason).toMatch(/closed the connection; starting it again in 1 s/);
    // Its last tools stay known while it is down, and a call fails at once, never sent.
    expect(connection.tools.length).toBeGreaterThan(0);
    expect(await callOf(connection, 'echo', { message: 'hi' })).toMatchObject({
      error: { reason: 'device_offline' },
      sent: false,
    });
    expect(await statusWhen(connection, ['ready'])).toBe('ready');
    expect(connection.pid()).not.toBe(pid);
  });
});

describe('an MCP server over Streamable HTTP (server-everything)', () => {
  it('lists and calls, and ends a call at once with device_offline when the server is killed mid-call', async () => {
    const server = await startEverythingHttp();
    cleanups.push(() => server.kill());
    const connection = await connect({
      name: 'web',
      pluginName: 'mcp-web',
      transport: { kind: 'http', url: server.url, headers: {} },
    });
    expect(connection.status).toBe('ready');
    expect(connection.tools.map((entry) => entry.name)).toContain('mcp__web__get-sum');
    expect(await callOf(connection, 'get-sum', { a: 40, b: 2 })).toMatchObject({
      result: { content: [{ type: 'text', text: 'The sum of 40 and 2 is 42.' }] },
      sent: true,
    });
    const sent = new Promise<void>((resolve) => connection.sent.subscribe(() => resolve()));
    const call = callOf(connection, 'trigger-long-running-operation', { duration: 30, steps: 3 });
    await sent;
    await server.kill();
    expect(await call).toMatchObject({ error: { reason: 'device_offline' }, sent: true });
    expect(connection.status).toBe('failed');
    expect(await callOf(connection, 'echo', { message: 'hi' })).toMatchObject({
      error: { reason: 'device_offline' },
      sent: false,
    });
  });
});

describe('an MCP call', () => {
  it('reaches the server as cancellation when its signal aborts', async () => {
    const { file } = declarationsFile([tool('wait')]);
    const connection = await connect(probeOverStdio({ name: 'probe', file }));
    const controller = new AbortController();
    const started = new Promise<void>((resolve) => connection.sent.subscribe(() => resolve()));
    const call = callOf(connection, 'wait', {}, controller.signal);
    await started;
    controller.abort(new Error('stopped by the person'));
    expect(await call).toMatchObject({ sent: true });
    await stderrWhen(connection, /cancelled/);
    expect(connection.stderrTail()).toMatch(/started (\d+)\ncancelled \1/);
  });
});
