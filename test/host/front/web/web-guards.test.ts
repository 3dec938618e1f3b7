import { afterEach, describe, expect, it } from 'vitest';
import { hostname } from 'node:os';
import WebSocket from 'ws';
import type { WebServer } from '../../../../host/front/web/web-server.ts';
import { serveTestHost } from '../../../helpers/serve-test-host.ts';
import { rawRequest } from './raw-http.ts';

const TOKEN = 'guard-token-0123456789abcdef';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function serve(
  options: { allowedHosts?: string[]; now?: () => number; host?: string } = {},
): Promise<{ server: WebServer }> {
  return serveTestHost(cleanups, {
    dataDirPrefix: 'home-agent-guards-',
    token: TOKEN,
    indexHtml: '<!doctype html><title>Home Agent</title>',
    server: options,
  });
}

const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

/** POST /api/app/info with an empty body, written byte for byte with these headers (from `localAddress` when given). */
function postInfo(port: number, headers: Record<string, string>, localAddress?: string) {
  return rawRequest({
    port,
    method: 'POST',
    path: '/api/app/info',
    headers,
    body: '{}',
    ...(localAddress ? { localAddress } : {}),
  });
}

function openSocket(server: WebServer, headers: Record<string, string> = {}, token = TOKEN) {
  const socket = new WebSocket(`ws://127.0.0.1:${server.port}/api/events?token=${token}`, { headers });
  cleanups.push(() => socket.terminate());
  return new Promise<{ opened: boolean; status?: number; retryAfter?: string }>((resolve) => {
    socket.on('open', () => resolve({ opened: true }));
    socket.on('unexpected-response', (_request, response) =>
      resolve({
        opened: false,
        status: response.statusCode ?? 0,
        ...(response.headers['retry-after'] ? { retryAfter: String(response.headers['retry-after']) } : {}),
      }),
    );
    socket.on('error', () => resolve({ opened: false }));
  });
}

describe('web server: Host and Origin', () => {
  it('answers a Host that is loopback, the bind address, this machine (and .local) or allowed by --allowed-host', async () => {
    const { server } = await serve({ allowedHosts: ['Home.Example'] });
    const port = server.port;
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `[::1]:${port}`,
      `${hostname()}:${port}`,
      `${hostname()}.local:${port}`,
      `home.example:${port}`,
      'home.example',
    ]) {
      const page = await rawRequest({ port, path: '/', headers: { host } });
      expect(page.status, host).toBe(200);
      const api = await postInfo(port, { host, ...auth });
      expect(api.status, host).toBe(200);
    }
  });

  it('refuses any other Host with 403 on every request, saying how to allow it (DNS rebinding)', async () => {
    const { server } = await serve();
    const port = server.port;
    for (const host of [`evil.example:${port}`, 'evil.example', `${hostname()}.evil.example`, '10.0.0.1:1']) {
      const page = await rawRequest({ port, path: '/', headers: { host } });
      expect(page.status, host).toBe(403);
      expect(page.body).toContain('--allowed-host');
      const api = await postInfo(port, { host, ...auth });
      expect(api.status, host).toBe(403);
    }
    expect((await openSocket(server, { host: 'evil.example' })).status).toBe(403);
  });

  it('refuses a WebSocket with the right token from another Origin, and opens one with no Origin or our own', async () => {
    const { server } = await serve();
    expect(await openSocket(server, { origin: 'http://evil.example' })).toEqual({ opened: false, status: 403 });
    expect(await openSocket(server, { origin: 'null' })).toEqual({ opened: false, status: 403 });
    expect(await openSocket(server, { origin: `http://127.0.0.1:${server.port}` })).toEqual({ opened: true });
    expect(await openSocket(server, { origin: `http://localhost:${server.port}` })).toEqual({ opened: true });
    expect(await openSocket(server)).toEqual({ opened: true });
  });

  it('refuses an API call from another Origin and answers one without an Origin (CLI and MCP clients)', async () => {
    const { server } = await serve();
    const port = server.port;
    const evil = await postInfo(port, { ...auth, origin: 'http://evil.example' });
    expect(evil.status).toBe(403);
    expect(evil.body).toContain('evil.example');
    const none = await postInfo(port, auth);
    expect(none.status).toBe(200);
  });
});

describe('web server: wrong tokens', () => {
  it('answers 10 wrong tokens with 401, then 429 with Retry-After, even for the right token, until the client has waited', async () => {
    const clock = { now: 1_000_000 };
    const { server } = await serve({ now: () => clock.now });
    const port = server.port;
    const call = (token: string) =>
      postInfo(port, { authorization: `Bearer ${token}`, 'content-type': 'application/json' });
    for (let attempt = 1; attempt <= 10; attempt += 1) expect((await call('wrong-token')).status).toBe(401);
    const limited = await call('wrong-token');
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('6');
    expect(JSON.parse(limited.body)).toEqual({
      ok: false,
      error: {
        status: 429,
        reason: 'rate_limited',
        retryAfterSeconds: 6,
        message: 'too many wrong tokens from this address: try again in 6 s',
      },
    });
    expect((await call(TOKEN)).status).toBe(429);
    expect((await openSocket(server, {}, TOKEN)).status).toBe(429);
    // Another client (another loopback address) is not held back.
    const other = await postInfo(port, auth, '127.0.0.2');
    expect(other.status).toBe(200);
    clock.now += 6_000;
    expect((await call(TOKEN)).status).toBe(200);
    expect((await call('wrong-token')).status).toBe(401);
    expect((await call('wrong-token')).status).toBe(429);
  });

  it('holds a burst of 1,000 wrong tokens to 10 answers of 401', async () => {
    // The clock stands still: on a loaded machine the burst can take seconds, and the bucket's refill
    // over them would let more than 10 through for a reason this test is not about.
    const { server } = await serve({ now: () => 1_000_000 });
    const statuses = await Promise.all(
      Array.from({ length: 1_000 }, () =>
        fetch(`${server.url}api/app/info`, {
          method: 'POST',
          headers: { authorization: 'Bearer nope' },
          body: '{}',
        }).then((response) => response.status),
      ),
    );
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(990);
  });
});

describe('web server: malformed requests', () => {
  it('answers malformed URLs with 400 (never 500)', async () => {
    const { server } = await serve();
    for (const bad of ['/%E0%A4%A', '/%', '/%zz', '/assets/%C0%AF', '/%ED%A0%80']) {
      const response = await rawRequest({ port: server.port, path: bad });
      expect(response.status, bad).toBe(400);
    }
    const api = await rawRequest({
      port: server.port,
      method: 'POST',
      path: '/api/%E0%A4%A',
      headers: auth,
      body: '{}',
    });
    expect(api.status).toBe(400);
  });

  it('never answers 500 to odd paths: traversal, doubled slashes, absolute form', async () => {
    const { server } = await serve();
    for (const odd of [
      '//',
      '//evil.example/x',
      '/..%2f..%2fetc%2fpasswd',
      '/a/../../etc/passwd',
      `http://127.0.0.1:${server.port}/`,
    ]) {
      const response = await rawRequest({ port: server.port, path: odd });
      expect([200, 400, 403, 404], odd).toContain(response.status);
      expect(response.body, odd).not.toContain('root:');
    }
  });

  it('refuses a 200,000-character conversationId with 400 naming the field', async () => {
    const { server } = await serve();
    const huge = 'c'.repeat(200_000);
    for (const [method, input] of [
      ['chat/send', { conversationId: huge, text: 'hi' }],
      ['conversations/events', { conversationId: huge }],
      ['chat/abort', { conversationId: huge }],
    ] as const) {
      const response = await fetch(`${server.url}api/${method}`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify(input),
      });
      expect(response.status, method).toBe(400);
      expect(JSON.stringify(await response.json())).toContain('conversationId');
    }
  });
});
