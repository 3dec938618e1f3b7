import { afterEach, describe, expect, it } from 'vitest';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { AgentEvent } from '../../../../core/events/agent-event.ts';
import { MCP_TOKEN } from '../../../../host/front/mcp/mcp-token.ts';
import { readToken } from '../../../../host/secrets/token-file.ts';
import { startHost, type RunningHost } from '../../../e2e/helpers/start-host.ts';
import { connectOverHttp, textOf, type ConnectedClient } from '../../../helpers/mcp-clients.ts';
import { serveTestHost } from '../../../helpers/serve-test-host.ts';
import { startSimProcess } from '../../../helpers/start-sim-process.ts';
import { startTestHost, tempDataDir } from '../../devices/host-rig.ts';
import { rawRequest } from '../web/raw-http.ts';
import { WRONG_TOKEN_BURST } from '../../../../host/front/web/wrong-token-limiter.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SLOW = 120_000;
const TOKEN = 'mcp-http-token-0123456789';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function client(options: Parameters<typeof connectOverHttp>[0]): Promise<ConnectedClient> {
  const connected = await connectOverHttp(options);
  cleanups.push(() => connected.close());
  return connected;
}

/** `home-agent serve --mcp` as a child on a data folder, with extra flags, and the MCP credential it made there. */
async function serveChild(dataDir: string, extraArgs: string[]): Promise<RunningHost & { mcpToken: string }> {
  const running = await startHost({ dataDir, provider: 'demo', extraArgs: ['--mcp', ...extraArgs] });
  cleanups.push(() => running.stop());
  return { ...running, mcpToken: readToken(dataDir, MCP_TOKEN)! };
}

describe('home-agent serve --mcp, to the SDK’s own Client over Streamable HTTP', () => {
  it(
    'lists the tools with both annotations and switches a lamp, behind the MCP credential and this server’s Origin',
    async () => {
      const data = tempDataDir('home-agent-mcp-http-');
      cleanups.push(() => data.remove());
      const served = await serveChild(data.dir, ['--sim-latency-ms', '0']);
      const url = `${served.origin}mcp`;
      const port = Number(new URL(served.origin).port);

      const home = await client({ url, token: served.mcpToken, clientName: 'cursor' });
      const { tools } = await home.client.listTools();
      const lamp = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
      expect(lamp.lamp__set).toEqual({ readOnlyHint: false, destructiveHint: false });
      expect(lamp.lamp__get).toEqual({ readOnlyHint: true, destructiveHint: false });
      expect((await home.call('lamp__set', { device_id: 'lamp-2', on: true })).structuredContent).toEqual({
        device_id: 'lamp-2',
        result: { on: true, brightness: 100 },
      });
      expect((await home.call('lamp__get', { device_id: 'lamp-2' })).structuredContent).toEqual({
        device_id: 'lamp-2',
        result: { on: true, brightness: 100 },
      });

      // No token: 401, as for the API; the SDK's client cannot connect.
      const bare = await rawRequest({ port, method: 'POST', path: '/mcp', headers: MCP_HEADERS, body: INITIALIZE });
      expect(bare.status).toBe(401);
      await expect(connectOverHttp({ url })).rejects.toThrow(/401/);
      // A page of another site cannot reach it through a browser: 403 for a foreign Origin, token or not.
      const foreign = await rawRequest({
        port,
        method: 'POST',
        path: '/mcp',
        headers: { ...MCP_HEADERS, authorization: `Bearer ${served.mcpToken}`, origin: 'http://evil.example' },
        body: INITIALIZE,
      });
      expect(foreign.status).toBe(403);
      await expect(
        connectOverHttp({ url, token: served.mcpToken, headers: { origin: 'http://evil.example' } }),
      ).rejects.toThrow(/403/);
    },
    SLOW,
  );

  it(
    'asks a call that needs approval through the store: a second process answers it, or nobody and it is refused',
    async () => {
      const data = tempDataDir('home-agent-mcp-http-');
      cleanups.push(() => data.remove());
      const relay = await startSimProcess({ kinds: ['relay'] });
      cleanups.push(() => relay.stop());
      const served = await serveChild(data.dir, [
        '--device',
        `${relay.devices[0]!.path},profile=at-relay-4`,
        '--mcp-approval-wait-ms',
        '3000',
      ]);
      // The second process: a host on the same data folder in this test's process, as a window's would be.
      const { host: window } = await startTestHost({ dataDir: data.dir });
      cleanups.push(() => window.dispose());
      const questions: Extract<AgentEvent, { type: 'approval/request' }>[] = [];
      let wake = (): void => undefined;
      window.events.subscribe((event) => {
        if (event.type !== 'approval/request') return;
        questions.push(event);
        wake();
      });
      const nextQuestion = (count: number) =>
        new Promise<void>((resolve) => {
          wake = () => questions.length >= count && resolve();
          wake();
        });

      const home = await client({ url: `${served.origin}mcp`, token: served.mcpToken });
      const call = home.call('relay__set', { channel: 3, on: true });
      await nextQuestion(1);
      expect(
        await window.handlers['approval/answer']({
          approvalId: questions[0]!.approvalId!,
          approved: true,
          remember: false,
        }),
      ).toEqual({ accepted: true });
      expect((await call).structuredContent).toEqual({ device_id: 'relay-1', result: { channel: 3, on: true } });
      expect(await relay.waitForState('relay-1', (state) => (state.channels as boolean[])[2] === true)).toEqual({
        channels: [false, false, true, false],
      });

      const unanswered = await home.call('relay__set', { channel: 4, on: true });
      expect(questions).toHaveLength(2);
      expect(unanswered.isError).toBe(true);
      expect(textOf(unanswered)).toContain('Nobody answered within 3 s whether relay__set on relay-1 may run');
      expect((await home.call('relay__get', { channel: 4 })).structuredContent).toEqual({
        device_id: 'relay-1',
        result: { channel: 4, on: false },
      });
    },
    SLOW,
  );
});

describe('/mcp tool list', () => {
  it('tells a connected client when the tools change (a plugin turned off in a window), and lists them anew', async () => {
    const { host, server, mcp } = await serveTestHost(cleanups, {
      dataDirPrefix: 'home-agent-mcp-',
      token: TOKEN,
      mcp: true,
    });
    const home = await client({ url: `http://127.0.0.1:${server.port}/mcp`, token: mcp!.token });
    const before = (await home.client.listTools()).tools.map((tool) => tool.name);
    expect(before).toContain('seq_run');
    const changed = new Promise<void>((resolve) =>
      home.client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    await host.handlers['plugins/set-enabled']({ name: 'sequences', enabled: false });
    await changed;
    const after = (await home.client.listTools()).tools.map((tool) => tool.name);
    expect(after.filter((name) => name.startsWith('seq_'))).toEqual([]);
    expect(after).toEqual(before.filter((name) => !name.startsWith('seq_')));
  });
});

describe('/mcp door: the web app’s own checks', () => {
  it('refuses a wrong token (401) on every method and a foreign Host (403)', async () => {
    const { server, mcp } = await serveTestHost(cleanups, {
      dataDirPrefix: 'home-agent-mcp-',
      token: TOKEN,
      mcp: true,
    });
    const url = `http://127.0.0.1:${server.port}/mcp`;
    const post = (headers: Record<string, string>) =>
      rawRequest({
        port: server.port,
        method: 'POST',
        path: '/mcp',
        headers: { ...MCP_HEADERS, ...headers },
        body: INITIALIZE,
      });

    const wrong = await post({ authorization: `Bearer ${mcp!.token}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.body).not.toContain('"result"');
    await expect(connectOverHttp({ url, token: 'not-the-token' })).rejects.toThrow(/401/);
    // The stream (GET) and the end of a session (DELETE) are behind the token too.
    for (const method of ['GET', 'DELETE'])
      expect((await rawRequest({ port: server.port, method, path: '/mcp', headers: MCP_HEADERS })).status, method).toBe(
        401,
      );
    // A page that rebinds its own name to this address sends its own Host: refused before the token is looked at.
    const rebound = await post({ authorization: `Bearer ${mcp!.token}`, host: `attacker.example:${server.port}` });
    expect(rebound.status).toBe(403);
  });

  // A clock that never moves: the wrong-token allowance does not come back during the test.
  it('counts wrong tokens on /mcp against the same allowance as the API: past it, even the right token waits (429)', async () => {
    const { server, mcp: served } = await serveTestHost(cleanups, {
      dataDirPrefix: 'home-agent-mcp-',
      token: TOKEN,
      mcp: true,
      server: { now: () => 0 },
    });
    const request = (path: string, token: string) =>
      rawRequest({
        port: server.port,
        method: 'POST',
        path,
        headers: { ...MCP_HEADERS, authorization: `Bearer ${token}` },
        body: path === '/mcp' ? INITIALIZE : '{}',
      });
    for (let index = 0; index < WRONG_TOKEN_BURST; index += 1) expect((await request('/mcp', 'nope')).status).toBe(401);
    const api = await request('/api/settings/get', TOKEN);
    expect(api.status).toBe(429);
    const mcp = await request('/mcp', served!.token);
    expect(mcp.status).toBe(429);
    expect(mcp.headers['retry-after']).toBeDefined();
  });
});

describe('/mcp budgets', () => {
  it('refuses a request body over 256 KiB before reading more, and goes on serving', async () => {
    const { server, mcp } = await serveTestHost(cleanups, {
      dataDirPrefix: 'home-agent-mcp-',
      token: TOKEN,
      mcp: true,
    });
    const big = await rawRequest({
      port: server.port,
      method: 'POST',
      path: '/mcp',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${mcp!.token}` },
      body: INITIALIZE.replace('"raw"', `"${'a'.repeat(300 * 1024)}"`),
    });
    expect(big.status).toBe(400);
    expect(big.body).toContain('the request body is larger than 262144 bytes');
    const home = await client({ url: `http://127.0.0.1:${server.port}/mcp`, token: mcp!.token });
    expect((await home.client.listTools()).tools.length).toBeGreaterThan(0);
  });
});
