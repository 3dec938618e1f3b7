import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { McpConnection } from '../../../../host/plugins/mcp/mcp-connection.ts';
import type { McpServerConfig } from '../../../../host/plugins/mcp/mcp-config.ts';
import { ToolError } from '../../../../core/tools/tool-error.ts';
import { isRunning, probeEntry, probeOverStdio } from '../../../helpers/mcp/mcp-test-servers.ts';
import {
  callTool,
  mcpDataDir,
  probeDeclarations,
  probeTool,
  startMcpHost,
  statusWhen,
} from '../../../helpers/mcp/mcp-host-rig.ts';
import { stderrWhen } from '../../../helpers/mcp/stderr-when.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A connection to `server` (default budgets unless given), stopped after the test. */
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

/** The probe server on `tools` (and `extra` settings of its file). */
function probe(tools: unknown[], extra: Record<string, unknown> = {}) {
  const dir = mcpDataDir(cleanups);
  return probeOverStdio({ name: 'probe', file: probeDeclarations(dir, tools, extra).file });
}

/** Calls a probe tool on the connection itself; the ToolError's data, or the result. */
async function direct(connection: McpConnection, tool: string, args: Record<string, unknown>) {
  try {
    return await connection.call({ tool, args, signal: AbortSignal.timeout(15_000), onSent: () => {} });
  } catch (error) {
    if (ToolError.isInstance(error)) return error.toData();
    throw error;
  }
}

const depthOf = (schema: unknown): number => {
  let depth = 0;
  let level = schema as { properties?: Record<string, unknown> } | undefined;
  while (level?.properties) {
    depth += 1;
    level = Object.values(level.properties)[0] as typeof level;
  }
  return depth;
};

/** A schema whose property `n` nests `levels` objects deep. */
function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < levels; level += 1) schema = { type: 'object', properties: { n: schema } };
  return schema;
}

describe('what an MCP server may make the host carry (budgets)', () => {
  it('tools: at most 64 per server, the first 64 it lists, saying so', async () => {
    const tools = Array.from({ length: 100 }, (_, index) => probeTool(`t${String(index).padStart(3, '0')}`));
    const connection = await connect(probe(tools));
    expect(connection.tools).toHaveLength(64);
    expect(connection.tools.at(-1)?.original).toBe('t063');
    expect(connection.warnings).toEqual(['mcp-probe lists more than 64 tools; only the first 64 are offered']);
  });

  it('descriptions: cut at 2,000 characters; schemas: cut at 64 levels (the rest open), deeper declarations left out', async () => {
    const connection = await connect(
      probe([
        probeTool('wordy', { description: 'w'.repeat(2_500) }),
        probeTool('deep', { inputSchema: nested(100) }),
        probeTool('abyss', { inputSchema: nested(300) }),
      ]),
    );
    const byName = new Map(connection.tools.map((tool) => [tool.original, tool]));
    expect(byName.get('wordy')?.description).toBe('w'.repeat(2_000));
    // Level 1 is the arguments object; 63 more levels of `n` keep their properties, the 64th is open.
    expect(depthOf(byName.get('deep')?.parameters)).toBe(63);
    expect(byName.has('abyss')).toBe(false);
    expect(connection.warnings).toEqual([
      'mcp-probe: the schema of "deep" nests more than 64 levels; the deeper parts accept any value',
      'mcp-probe: the tool "abyss" is left out: its declaration nests more than 256 levels',
    ]);
  });

  it('results: at most mcpMaxResultBytes (256 KiB unless set), and nested at most 64 levels', async () => {
    const dir = mcpDataDir(cleanups);
    const { file } = probeDeclarations(dir, [
      probeTool('big', { inputSchema: { type: 'object', properties: { bytes: { type: 'integer' } } } }),
      probeTool('deep', { inputSchema: { type: 'object', properties: { depth: { type: 'integer' } } } }),
    ]);
    const { host } = await startMcpHost(cleanups, { servers: { probe: probeEntry(file) }, approvalPolicy: 'allow' });
    expect(await callTool(host, 'mcp__probe__big', { bytes: 200_000 })).toMatchObject({ ok: true });
    const over = await callTool(host, 'mcp__probe__big', { bytes: 300_000 });
    expect(over).toMatchObject({
      ok: false,
      error: { reason: 'failed', detail: expect.stringMatching(/more than mcpMaxResultBytes allows \(262144\)/) },
    });
    await host.handlers['settings/set']({ key: 'mcpMaxResultBytes', value: 1_048_576 });
    expect(await callTool(host, 'mcp__probe__big', { bytes: 300_000 })).toMatchObject({ ok: true });
    expect(await callTool(host, 'mcp__probe__deep', { depth: 60 })).toMatchObject({ ok: true });
    expect(await callTool(host, 'mcp__probe__deep', { depth: 100 })).toMatchObject({
      ok: false,
      error: { reason: 'failed', detail: expect.stringContaining('nested more than 64 levels') },
    });
  });

  it('errors: a server’s own words in an error are cut at 2,000 characters, after its secrets are replaced', async () => {
    const secret = 'sesame-0123456789';
    const server = probeOverStdio({
      name: 'probe',
      file: probeDeclarations(mcpDataDir(cleanups), [probeTool('throw')]).file,
      env: { PROBE_TOKEN: '${TOKEN}' },
    });
    const connection = await connect(server, { environment: { TOKEN: secret } });
    // The SDK puts "MCP error CODE: " before the message on both sides.
    const said = 'MCP error -32603: MCP error -32603: ';
    const small = await direct(connection, 'throw', { prefix: 'jammed ', bytes: 10 });
    expect(small).toEqual({ reason: 'failed', detail: `mcp-probe: ${said}jammed ${'z'.repeat(10)}` });
    // The secret straddles the cut: replaced first, so none of it is left.
    const prefix = 'y'.repeat(1_990 - said.length);
    const large = await direct(connection, 'throw', { prefix: `${prefix}${secret}`, bytes: 3_000_000 });
    expect(large).toEqual({
      reason: 'failed',
      detail: `mcp-probe: ${said}${prefix}***${'z'.repeat(7)}… (cut: ${1_990 + 3 + 3_000_000} characters)`,
    });
  });

  it('messages: one over the bound (stdio) drops the connection, saying why, and the server is started again', async () => {
    const connection = await connect(probe([]), { maxMessageBytes: 1024 * 1024 });
    const call = direct(connection, 'huge-line', { bytes: 2 * 1024 * 1024 });
    expect(await call).toMatchObject({ reason: 'device_offline' });
    expect(connection.status).toBe('failed');
    expect(connection.reason).toMatch(/^it sent a message over 1048576 bytes; starting it again in 1 s$/);
    expect(await statusWhen(connection, ['ready'])).toBe('ready');
  });

  it('messages: one over the bound (Streamable HTTP) drops the connection, saying why', async () => {
    // A loopback server that answers initialize, then lists its tools in a 2 MiB body.
    const server: Server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        if (request.method !== 'POST') {
          response.writeHead(405).end();
          return;
        }
        const message = JSON.parse(body) as { id?: number; method: string };
        if (message.id === undefined) {
          response.writeHead(202).end();
          return;
        }
        const result =
          message.method === 'initialize'
            ? { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'big', version: '1' } }
            : { tools: [{ name: 'x', description: 'd'.repeat(2 * 1024 * 1024), inputSchema: { type: 'object' } }] };
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const address = server.address() as { port: number };
    const connection = await connect(
      {
        name: 'big',
        pluginName: 'mcp-big',
        transport: { kind: 'http', url: `http://127.0.0.1:${address.port}/mcp`, headers: {} },
      },
      { maxMessageBytes: 1024 * 1024 },
    );
    expect(connection.status).toBe('failed');
    expect(connection.reason).toMatch(/^the server sent a message over 1048576 bytes; starting it again in 1 s$/);
  });

  it('stderr: only its last 4,096 characters are kept, however much the server writes', async () => {
    const connection = await connect(probe([]));
    expect(await direct(connection, 'stderr-flood', { bytes: 2 * 1024 * 1024, last: 'the very end' })).toMatchObject({
      content: [{ text: 'flooded stderr' }],
    });
    const tail = await stderrWhen(connection, /the very end\n$/);
    expect(tail.length).toBeLessThanOrEqual(4_096);
    expect(tail.startsWith('e')).toBe(true);
  });

  it('listing: at most 16 pages, and a flood of list_changed notices costs one listing and one more', async () => {
    const endless = await connect(probe([], { endlessCursor: true }));
    expect(endless.status).toBe('ready');
    // Its stderr comes on another pipe than its answers: wait for the 16th line, then there is no 17th.
    expect((await stderrWhen(endless, /(listed\n[^]*){16}/)).match(/listed/g)).toHaveLength(16);

    const connection = await connect(probe([probeTool('one')]));
    expect(await direct(connection, 'notify-flood', { count: 200 })).toMatchObject({
      content: [{ text: 'flooded' }],
    });
    // The first listing at start, one at the first notice, and one more for all the others.
    const tail = await stderrWhen(connection, /(listed\n[^]*){3}/);
    expect(tail.match(/listed/g)).toHaveLength(3);
  });

  it('restarts: a server that keeps failing is started again after 1 s, then 2 s, then 4 s …', async () => {
    const connection = await connect({
      name: 'crash',
      pluginName: 'mcp-crash',
      transport: { kind: 'stdio', command: process.execPath, args: ['-e', 'process.exit(1)'], env: {} },
    });
    const reasons: string[] = [connection.reason ?? ''];
    await new Promise<void>((resolve) => {
      const stop = connection.changes.subscribe(() => {
        if (connection.status !== 'failed') return;
        reasons.push(connection.reason ?? '');
        if (reasons.length === 3) {
          stop();
          resolve();
        }
      });
    });
    expect(reasons.map((reason) => reason.replace(/^.*; /, ''))).toEqual([
      'starting it again in 1 s',
      'starting it again in 2 s',
      'starting it again in 4 s',
    ]);
  });

  it('a start that fails kills the child the SDK would forget', async () => {
    const connection = await connect(
      {
        name: 'mute',
        pluginName: 'mcp-mute',
        // Never answers initialize, and ignores its input closing.
        transport: {
          kind: 'stdio',
          command: process.execPath,
          args: ['-e', 'console.error("pid " + process.pid); setInterval(() => {}, 1000)'],
          env: {},
        },
      },
      { connectTimeoutMs: 1_000 },
    );
    expect(connection.status).toBe('failed');
    expect(connection.reason).toMatch(/did not answer within 1000 ms/);
    const pid = Number(/pid (\d+)/.exec(connection.stderrTail())?.[1]);
    await connection.stop();
    expect(isRunning(pid)).toBe(false);
  });
});
