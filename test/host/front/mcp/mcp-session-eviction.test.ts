import { afterEach, describe, expect, it } from 'vitest';
import {
  EVICTION_LOG_INTERVAL_MS,
  MAX_HTTP_SESSIONS,
  MIN_IDLE_BEFORE_EVICTION_MS,
} from '../../../../host/front/mcp/mcp-http-endpoint.ts';
import { connectOverHttp, type ConnectedClient } from '../../../helpers/mcp-clients.ts';
import { serveTestHost } from '../../../helpers/serve-test-host.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'churn', version: '1' } },
});

/** A `/mcp` whose endpoint reads `clock.now` and whose log lines are kept. */
async function serve() {
  const clock = { now: 0 };
  const lines: string[] = [];
  const served = await serveTestHost(cleanups, {
    dataDirPrefix: 'home-agent-mcp-eviction-',
    token: 'web-token-of-the-person-0123456789',
    mcp: { now: () => clock.now, log: (line) => lines.push(line) },
  });
  const mcp = served.mcp!;
  const url = `${served.server.url}mcp`;
  const client = async (): Promise<ConnectedClient> => {
    const connected = await connectOverHttp({ url, token: mcp.token });
    cleanups.push(() => connected.close());
    return connected;
  };
  // The status is all a test needs: the answer's stream is let go as soon as the head arrives.
  const initialize = async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${mcp.token}`,
      },
      body: INITIALIZE,
    });
    await response.body?.cancel();
    return response;
  };
  const evictionLines = () => lines.filter((line) => line.includes('to make room'));
  return { clock, endpoint: mcp.endpoint, client, initialize, evictionLines };
}

describe(`/mcp sessions past ${MAX_HTTP_SESSIONS}`, () => {
  it('gives a newcomer the place of the session idle the longest, once it has been idle long enough; 503 before', async () => {
    const { clock, endpoint, client } = await serve();
    const clients: ConnectedClient[] = [];
    for (let index = 0; index < MAX_HTTP_SESSIONS; index += 1) clients.push(await client());

    clock.now = MIN_IDLE_BEFORE_EVICTION_MS - 1;
    await expect(client()).rejects.toThrow(`All ${MAX_HTTP_SESSIONS} MCP sessions are in use`);
    expect(endpoint.openSessions).toBe(MAX_HTTP_SESSIONS);

    clock.now = MIN_IDLE_BEFORE_EVICTION_MS;
    // Every other session is used now, so only the first has been idle long enough.
    for (const other of clients.slice(1)) await other.client.listTools();
    const newcomer = await client();
    expect((await newcomer.client.listTools()).tools.length).toBeGreaterThan(0);
    await expect(clients[0]!.client.listTools()).rejects.toThrow(/Session not found/);
    expect((await clients[1]!.client.listTools()).tools.length).toBeGreaterThan(0);
    await expect(client()).rejects.toThrow(`All ${MAX_HTTP_SESSIONS} MCP sessions are in use`);
  });

  it('lets a burst of new sessions close only the sessions idle long enough, and logs them in one line per interval', async () => {
    const { clock, endpoint, initialize, evictionLines } = await serve();
    for (let index = 0; index < MAX_HTTP_SESSIONS; index += 1) expect((await initialize()).status).toBe(200);

    clock.now = MIN_IDLE_BEFORE_EVICTION_MS;
    const statuses: number[] = [];
    for (let index = 0; index < 3 * MAX_HTTP_SESSIONS; index += 1) statuses.push((await initialize()).status);
    // Each of the idle sessions gave way once; the sessions the burst itself opened are not idle.
    expect(statuses.filter((status) => status === 200)).toHaveLength(MAX_HTTP_SESSIONS);
    expect(statuses.filter((status) => status === 503)).toHaveLength(2 * MAX_HTTP_SESSIONS);
    expect(endpoint.openSessions).toBe(MAX_HTTP_SESSIONS);
    expect(evictionLines()).toHaveLength(1);

    clock.now += Math.max(EVICTION_LOG_INTERVAL_MS, MIN_IDLE_BEFORE_EVICTION_MS);
    expect((await initialize()).status).toBe(200);
    expect(evictionLines()).toHaveLength(2);
    // The second line counts the evictions not yet logged: the 15 of the burst and this one.
    expect(evictionLines()[1]).toContain(`closed ${MAX_HTTP_SESSIONS} idle MCP sessions`);
  });
});
