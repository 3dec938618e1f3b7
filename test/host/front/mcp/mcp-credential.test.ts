import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { API_METHODS } from '../../../../host/contract/api-contract.ts';
import { MCP_TOKEN } from '../../../../host/front/mcp/mcp-token.ts';
import { readToken, rotateToken, WEB_TOKEN } from '../../../../host/secrets/token-file.ts';
import { WRONG_TOKEN_BURST } from '../../../../host/front/web/wrong-token-limiter.ts';
import { connectOverHttp, type ConnectedClient } from '../../../helpers/mcp-clients.ts';
import { serveTestHost } from '../../../helpers/serve-test-host.ts';
import { rawRequest } from '../web/raw-http.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const WEB = 'web-token-of-the-person-0123456789';
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function serve(options: { now?: () => number } = {}) {
  const served = await serveTestHost(cleanups, {
    dataDirPrefix: 'home-agent-mcp-credential-',
    token: WEB,
    mcp: true,
    server: options,
  });
  const mcp = served.mcp!;
  const post = (path: string, token: string, body = '{}') =>
    rawRequest({
      port: served.server.port,
      method: 'POST',
      path,
      headers: { ...MCP_HEADERS, authorization: `Bearer ${token}` },
      body,
    });
  return { ...served, mcp, url: `${served.server.url}mcp`, post };
}

async function client(url: string, token: string): Promise<ConnectedClient> {
  const connected = await connectOverHttp({ url, token });
  cleanups.push(() => connected.close());
  return connected;
}

/** The status a WebSocket upgrade of /api/events with `token` is answered with (101 when it opens). */
function upgradeStatus(port: number, token: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/events?token=${token}`);
    socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.on('open', () => {
      socket.close();
      resolve(101);
    });
  });
}

describe('the MCP credential opens /mcp and nothing else', () => {
  it('is its own file beside web-token, and an MCP client lists and calls tools with it', async () => {
    const { dataDir, mcp, url } = await serve();
    expect(readToken(dataDir, MCP_TOKEN)).toBe(mcp.token);
    expect(mcp.token).not.toBe(WEB);
    expect(readToken(dataDir, WEB_TOKEN)).toBeUndefined();
    const home = await client(url, mcp.token);
    expect((await home.client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('answers 403 to every API method and to the event stream with it, and changes nothing', async () => {
    const { server, mcp, post } = await serve();
    for (const method of API_METHODS) {
      const answer = await post(`/api/${method}`, mcp.token);
      expect(answer.status, method).toBe(403);
      expect(answer.body, method).toContain('opens /mcp only');
    }
    // A change the client would make for itself: refused before anything is read of it.
    expect((await post('/api/plugins/set-enabled', mcp.token, '{"name":"sequences","enabled":false}')).status).toBe(
      403,
    );
    const listed = JSON.parse((await post('/api/plugins/list', WEB)).body) as {
      result: { plugins: { name: string; enabled: boolean }[] };
    };
    expect(listed.result.plugins.find((plugin) => plugin.name === 'sequences')?.enabled).toBe(true);
    expect(await upgradeStatus(server.port, mcp.token)).toBe(403);
    expect(await upgradeStatus(server.port, WEB)).toBe(101);
  });

  it('does not count a known credential at the wrong door as a wrong token: the person’s own window is never held back by it', async () => {
    // A clock that never moves: an allowance spent is not given back during the test.
    const { mcp, post } = await serve({ now: () => 0 });
    for (let index = 0; index < WRONG_TOKEN_BURST * 2; index += 1) {
      expect((await post('/api/app/info', mcp.token)).status).toBe(403);
      expect((await post('/mcp', WEB, INITIALIZE)).status).toBe(401);
    }
    expect((await post('/api/app/info', WEB)).status).toBe(200);
  });
});

describe('the web token does not open /mcp', () => {
  it('answers 401 on every method, naming the command that shows the MCP credential', async () => {
    const { server, post } = await serve();
    const refused = await post('/mcp', WEB, INITIALIZE);
    expect(refused.status).toBe(401);
    expect(refused.body).toContain('home-agent token show --mcp');
    expect(refused.body).not.toContain('"result"');
    for (const method of ['GET', 'DELETE']) {
      const answer = await rawRequest({
        port: server.port,
        method,
        path: '/mcp',
        headers: { ...MCP_HEADERS, authorization: `Bearer ${WEB}` },
      });
      expect(answer.status, method).toBe(401);
      expect(answer.body, method).toContain('home-agent token show --mcp');
    }
    await expect(connectOverHttp({ url: `${server.url}mcp`, token: WEB })).rejects.toThrow(/401/);
  });
});

describe('rotating the MCP credential', () => {
  it('ends the sessions opened with the old one: the old credential is refused and its session is gone', async () => {
    const { dataDir, mcp, url, post } = await serve();
    const before = await client(url, mcp.token);
    expect((await before.client.listTools()).tools.length).toBeGreaterThan(0);
    const { sessionId } = before.client.transport as StreamableHTTPClientTransport;
    expect(sessionId).toBeDefined();

    const rotated = rotateToken(dataDir, MCP_TOKEN);
    // The old credential no longer opens the door, its own session included.
    await expect(before.client.listTools()).rejects.toThrow(/401/);
    // The session itself ended: not even the new credential reaches it.
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    const orphan = await rawRequest({
      port: Number(new URL(url).port),
      method: 'POST',
      path: '/mcp',
      headers: {
        ...MCP_HEADERS,
        authorization: `Bearer ${rotated}`,
        'mcp-session-id': sessionId!,
        'mcp-protocol-version': '2025-06-18',
      },
      body: list,
    });
    expect(orphan.status).toBe(404);
    expect(mcp.endpoint.openSessions).toBe(0);
    const after = await client(url, rotated);
    expect((await after.client.listTools()).tools.length).toBeGreaterThan(0);
    expect((await post('/mcp', mcp.token, INITIALIZE)).status).toBe(401);
  });
});
