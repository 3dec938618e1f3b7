// What the plugin host does as an MCP client beyond calls: the capabilities it declares, a server's
// question during a call (elicitation: declined without a front end, defaults applied when the
// person accepts), Stop reaching the server as cancellation, and a closed SSE stream resumed after
// the server's `retry`. Against real servers: server-everything, the probe, and a small HTTP server.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpConnection } from '../../../../host/plugins/mcp/mcp-connection.ts';
import type { McpServerConfig } from '../../../../host/plugins/mcp/mcp-config.ts';
import {
  MAX_ELICITATION_FIELDS,
  type McpElicitationRequest,
  type McpElicitationSchema,
} from '../../../../host/plugins/mcp/mcp-elicitation.ts';
import { everythingOverStdio, everythingStdioEntry, probeEntry } from '../../../helpers/mcp/mcp-test-servers.ts';
import {
  callTool,
  connectionOf,
  mcpDataDir,
  probeDeclarations,
  probeTool,
  startMcpHost,
} from '../../../helpers/mcp/mcp-host-rig.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

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

/** The JSON server-everything's trigger-elicitation-request prints after "Raw result:": what it was answered. */
function rawElicitResult(result: { content: unknown[] }): unknown {
  const texts = (result.content as { type: string; text?: string }[]).map((part) => part.text ?? '');
  const raw = texts.find((text) => text.includes('Raw result:'));
  return JSON.parse(raw!.slice(raw!.indexOf('Raw result:') + 'Raw result:'.length));
}

const ELICIT = { tool: 'trigger-elicitation-request', args: {} };

describe('a server’s question during a call (elicitation)', () => {
  it('is allowed by the capabilities the client declares (server-everything lists its elicitation tool only then)', async () => {
    const connection = await connect(everythingOverStdio('web'));
    expect(connection.status).toBe('ready');
    expect(connection.tools.map((tool) => tool.original)).toContain('trigger-elicitation-request');
  });

  it('is declined when no front end can show it: the host as people run it, the model never answering', async () => {
    const { host } = await startMcpHost(cleanups, {
      servers: { everything: everythingStdioEntry() },
      approvalPolicy: 'allow',
    });
    const result = await callTool(host, 'mcp__everything__trigger-elicitation-request', {});
    expect(result).toMatchObject({ ok: true });
    expect(JSON.stringify(result)).toContain('User declined to provide the requested information');
    expect(JSON.stringify(result)).toContain('\\"action\\": \\"decline\\"');
  });

  it('is put to the person with the schema’s defaults, and an accepted answer is sent with the defaults of the fields left out', async () => {
    const asked: Omit<McpElicitationRequest, 'signal' | 'requestedSchema'>[] = [];
    const connection = await connect(everythingOverStdio('web'), {
      elicitation: (request) => {
        asked.push({ plugin: request.plugin, message: request.message, defaults: request.defaults });
        // The person types a name and leaves every other field as the form showed it.
        return Promise.resolve({ action: 'accept', content: { name: 'Ada', check: true } });
      },
    });
    const result = await connection.call({ ...ELICIT, signal: AbortSignal.timeout(15_000), onSent: () => {} });
    const defaults = {
      firstLine: 'It was a dark and stormy night.',
      integer: 42,
      number: 3.14,
      untitledSingleSelectEnum: 'Monica',
      untitledMultipleSelectEnum: ['Guitar'],
      titledSingleSelectEnum: 'hero-1',
      titledMultipleSelectEnum: ['fish-1'],
      legacyTitledEnum: 'pet-1',
    };
    expect(asked).toEqual([
      { plugin: 'mcp-web', message: 'Please provide inputs for the following fields:', defaults },
    ]);
    expect(rawElicitResult(result)).toEqual({ action: 'accept', content: { ...defaults, name: 'Ada', check: true } });
  });

  it('keeps what the person changed over a default', async () => {
    const connection = await connect(everythingOverStdio('web'), {
      elicitation: () => Promise.resolve({ action: 'accept', content: { name: 'Ada', integer: 7 } }),
    });
    const result = await connection.call({ ...ELICIT, signal: AbortSignal.timeout(15_000), onSent: () => {} });
    expect(rawElicitResult(result)).toMatchObject({ action: 'accept', content: { name: 'Ada', integer: 7 } });
  });

  it('is declined when the front end fails, and the call goes on', async () => {
    const connection = await connect(everythingOverStdio('web'), {
      elicitation: () => Promise.reject(new Error('the window closed')),
    });
    const result = await connection.call({ ...ELICIT, signal: AbortSignal.timeout(15_000), onSent: () => {} });
    expect(rawElicitResult(result)).toEqual({ action: 'decline' });
  });
});

/** The SDK's own server over Streamable HTTP, with one tool `ask` that asks its person `requestedSchema` and returns the answer as JSON. */
async function startAskingServer(requestedSchema: McpElicitationSchema) {
  const server = new McpServer({ name: 'asking', version: '1' });
  server.registerTool('ask', { description: 'asks its person' }, async (extra) => {
    const answer = await extra.sendRequest(
      { method: 'elicitation/create', params: { message: 'a big form', requestedSchema } },
      ElicitResultSchema,
    );
    return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
  });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => 's1' });
  await server.connect(transport);
  const http = createServer((request, response) => void transport.handleRequest(request, response));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    await server.close();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

describe('a form too large to show', () => {
  it(`is declined without asking the person (more than ${MAX_ELICITATION_FIELDS} fields)`, async () => {
    const fields = (count: number): McpElicitationSchema['properties'] =>
      Object.fromEntries(
        Array.from({ length: count }, (_, index) => [`f${index}`, { type: 'string' as const, default: 'x' }]),
      );
    const asked: string[] = [];
    const answerOf = async (count: number) => {
      const url = await startAskingServer({ type: 'object', properties: fields(count) });
      const connection = await connect(
        { name: `asking${count}`, pluginName: `mcp-asking${count}`, transport: { kind: 'http', url, headers: {} } },
        {
          elicitation: (request) => {
            asked.push(request.plugin);
            return Promise.resolve({ action: 'accept', content: {} });
          },
        },
      );
      const result = await connection.call({
        tool: 'ask',
        args: {},
        signal: AbortSignal.timeout(10_000),
        onSent: () => {},
      });
      return JSON.parse((result.content[0] as { text: string }).text) as { action: string };
    };
    expect(await answerOf(51)).toEqual({ action: 'decline' });
    expect(asked).toEqual([]);
    expect((await answerOf(50)).action).toBe('accept');
    expect(asked).toEqual(['mcp-asking50']);
  });
});

describe('Stop', () => {
  it('reaches the server as notifications/cancelled for the call in flight', async () => {
    const dataDir = mcpDataDir(cleanups);
    const { file } = probeDeclarations(dataDir, [probeTool('wait')]);
    const { host } = await startMcpHost(cleanups, {
      dataDir,
      servers: { probe: probeEntry(file) },
      approvalPolicy: 'allow',
      replies: [{ toolCalls: [{ name: 'mcp__probe__wait', args: {} }] }, { text: 'stopped' }],
    });
    const connection = connectionOf(host, 'mcp-probe');
    const sent = new Promise<void>((resolve) => connection.sent.subscribe(() => resolve()));
    const turn = host.agent.runTurn({ conversationId: 'stop-me', text: 'go' });
    await sent;
    expect(await host.handlers['chat/abort']({ conversationId: 'stop-me' })).toEqual({ aborted: true });
    await turn.catch(() => undefined);
    await new Promise<void>((resolve) => {
      const look = (): boolean => /cancelled/.test(connection.stderrTail()) && (resolve(), true);
      if (!look()) {
        const stop = connection.stderr.subscribe(() => look() && stop());
      }
    });
    // The probe writes "started ID" when the call arrives and "cancelled ID" when it is cancelled.
    expect(connection.stderrTail()).toMatch(/started (\d+)\ncancelled \1/);
  });
});

/**
 * A Streamable HTTP server that answers a call on an SSE stream it closes after a priming event
 * (`id: e1`, `retry: RETRY_MS`), and answers the resumed GET (with `Last-Event-ID`) with the result.
 */
async function startResumingServer(retryMs: number) {
  const seen: { closedAt?: number; resumedAt?: number; lastEventId?: string } = {};
  let callId: unknown;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const session = { 'mcp-session-id': 's1' };
    if (request.method === 'GET') {
      const lastEventId = request.headers['last-event-id'];
      if (typeof lastEventId !== 'string') {
        // No stream of its own for the session: only resumptions are served.
        response.writeHead(405).end();
        return;
      }
      seen.resumedAt = performance.now();
      seen.lastEventId = lastEventId;
      response.writeHead(200, { 'content-type': 'text/event-stream', ...session });
      const result = { jsonrpc: '2.0', id: callId, result: { content: [{ type: 'text', text: 'resumed' }] } };
      response.write(`id: e2\ndata: ${JSON.stringify(result)}\n\n`);
      return;
    }
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const message = JSON.parse(body) as { id?: unknown; method: string; params?: { protocolVersion?: string } };
      if (message.id === undefined) {
        response.writeHead(202, session).end();
        return;
      }
      const answer = (result: unknown): void => {
        response.writeHead(200, { 'content-type': 'application/json', ...session });
        response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
      };
      if (message.method === 'initialize')
        return answer({
          protocolVersion: message.params?.protocolVersion,
          serverInfo: { name: 'resuming', version: '1' },
          capabilities: { tools: {} },
        });
      if (message.method === 'tools/list')
        return answer({ tools: [{ name: 'slow', inputSchema: { type: 'object', properties: {} } }] });
      callId = message.id;
      response.writeHead(200, { 'content-type': 'text/event-stream', ...session });
      response.write(`id: e1\nretry: ${retryMs}\ndata: \n\n`);
      setTimeout(() => {
        seen.closedAt = performance.now();
        response.end();
      }, 20);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  server.unref();
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, seen };
}

describe('an SSE stream the server closes mid-call', () => {
  it('is resumed with GET and Last-Event-ID after the server’s retry, and the call gets its answer', async () => {
    const retryMs = 300;
    const { url, seen } = await startResumingServer(retryMs);
    const connection = await connect({
      name: 'resuming',
      pluginName: 'mcp-resuming',
      transport: { kind: 'http', url, headers: {} },
    });
    expect(connection.status).toBe('ready');
    const result = await connection.call({
      tool: 'slow',
      args: {},
      signal: AbortSignal.timeout(10_000),
      onSent: () => {},
    });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'resumed' }] });
    expect(seen.lastEventId).toBe('e1');
    const waited = seen.resumedAt! - seen.closedAt!;
    // The server's 300 ms, not the client's own second (the margin is for a loaded machine).
    expect(waited).toBeGreaterThanOrEqual(retryMs - 20);
    expect(waited).toBeLessThan(900);
    expect(connection.status).toBe('ready');
  });
});
