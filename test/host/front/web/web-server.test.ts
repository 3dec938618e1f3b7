import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Host } from '../../../../host/app/create-host.ts';
import { startWebServer, type WebServer } from '../../../../host/front/web/web-server.ts';
import { serveTestHost } from '../../../helpers/serve-test-host.ts';

const TOKEN = 'test-token-0123456789abcdef';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function serve(): Promise<{ host: Host; server: WebServer }> {
  return serveTestHost(cleanups, {
    dataDirPrefix: 'home-agent-web-',
    token: TOKEN,
    replies: [{ text: 'Hello from the script.' }],
  });
}

function post(server: WebServer, method: string, body: unknown, token: string | null = TOKEN): Promise<Response> {
  return fetch(`${server.url}api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

describe('web server', () => {
  it('refuses API calls without the token', async () => {
    const { server } = await serve();
    const response = await post(server, 'app/info', {}, null);
    expect(response.status).toBe(401);
    expect(await post(server, 'app/info', {}, 'wrong-token')).toHaveProperty('status', 401);
  });

  it('answers a valid call and rejects invalid input with 400 naming the field', async () => {
    const { server } = await serve();
    const info = await post(server, 'app/info', {});
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({ ok: true, result: { transport: 'web', model: { scripted: true } } });
    const bad = await post(server, 'chat/send', { text: 42 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('text');
  });

  it('streams the events of a turn over the WebSocket only with the token', async () => {
    const { server } = await serve();
    const wsUrl = `${server.url.replace('http', 'ws')}api/events`;
    const refused = new WebSocket(`${wsUrl}?token=nope`);
    await new Promise<void>((resolve) => refused.on('error', () => resolve()));
    const socket = new WebSocket(`${wsUrl}?token=${TOKEN}`);
    cleanups.push(() => socket.close());
    await new Promise<void>((resolve) => socket.on('open', () => resolve()));
    const types: string[] = [];
    const ended = new Promise<void>((resolve) =>
      socket.on('message', (data: Buffer) => {
        const event = JSON.parse(data.toString()) as { type: string };
        types.push(event.type);
        if (event.type === 'turn/end') resolve();
      }),
    );
    const sent = await post(server, 'chat/send', { text: 'hi' });
    expect(sent.status).toBe(200);
    await ended;
    expect(types[0]).toBe('turn/start');
    expect(types).toContain('text/delta');
  });

  it('refuses to start on a non-loopback address without a real token', async () => {
    const { host } = await serve();
    await expect(
      startWebServer({
        handlers: host.handlers,
        bus: host.events,
        staticDir: '.',
        host: '0.0.0.0',
        port: 0,
        token: '',
      }),
    ).rejects.toThrow(/without a token/);
  });
});
