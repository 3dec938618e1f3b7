import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import { hostNoticeSchema, type HostAgentEvent } from '../../../host/contract/api-contract.ts';
import { ApiCallError, type ApiClient, type ConnectionState } from '../../../renderer/api/api-client.ts';
import { createWebApiClient } from '../../../renderer/api/web-api-client.ts';
import { event } from '../helpers/agent-events.ts';
import { startLoopbackHost, type LoopbackHost } from '../helpers/loopback-host.ts';

const WebSocketImpl = NodeWebSocket as unknown as new (url: string) => WebSocket;
let host: LoopbackHost | undefined;
let client: ApiClient | undefined;

afterEach(async () => {
  client?.dispose();
  client = undefined;
  await host?.close();
  host = undefined;
});

function connect(options: { token?: string; reconnectDelayMs?: number } = {}): ApiClient {
  client = createWebApiClient({
    baseUrl: host!.baseUrl,
    token: options.token ?? host!.token,
    WebSocketImpl,
    reconnectDelayMs: options.reconnectDelayMs ?? 10,
  });
  return client;
}

/** Resolves with the next `count` events the client delivers. */
function nextEvents(api: ApiClient, count: number): Promise<HostAgentEvent[]> {
  return new Promise((resolve) => {
    const seen: HostAgentEvent[] = [];
    const stop = api.onEvent((received) => {
      seen.push(received);
      if (seen.length === count) {
        stop();
        resolve(seen);
      }
    });
  });
}

function until(api: ApiClient, status: ConnectionState['status']): Promise<void> {
  return new Promise((resolve) => {
    const stop = api.onConnection((state) => {
      if (state.status === status) {
        queueMicrotask(() => stop());
        resolve();
      }
    });
  });
}

describe('createWebApiClient', () => {
  it('posts the input with the bearer token and returns the contract-checked result', async () => {
    host = await startLoopbackHost();
    host.routes['chat/send'] = () => ({ result: { conversationId: 'c1', turnId: 't1' } });
    const result = await connect().call('chat/send', { conversationId: 'c1', text: 'Lamps on' });
    expect(result).toEqual({ conversationId: 'c1', turnId: 't1' });
    expect(host.requests.get('chat/send')).toEqual([{ conversationId: 'c1', text: 'Lamps on' }]);
  });

  it('turns the host’s error envelope into an ApiCallError with its message and status', async () => {
    host = await startLoopbackHost();
    host.routes['chat/abort'] = () => ({ status: 409, message: 'Nothing is running.' });
    const failure = await connect()
      .call('chat/abort', { conversationId: 'c1' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiCallError);
    expect([(failure as ApiCallError).message, (failure as ApiCallError).status]).toEqual(['Nothing is running.', 409]);
  });

  it('reports a refused token as unauthorized', async () => {
    host = await startLoopbackHost();
    const api = connect({ token: 'wrong' });
    const refused = until(api, 'unauthorized');
    await expect(api.call('app/info', {})).rejects.toThrow('Missing or wrong token.');
    await refused;
  });

  it('rejects an answer that does not match the contract instead of passing it on', async () => {
    host = await startLoopbackHost();
    host.routes['app/info'] = () => ({
      result: { version: '1', transport: 'web', model: { label: 'x' }, dataDir: '/d' },
    });
    await expect(connect().call('app/info', {})).rejects.toThrow(/does not match the contract/);
  });

  it('rejects invalid input before sending it', async () => {
    host = await startLoopbackHost();
    await expect(connect().call('chat/send', { text: '' })).rejects.toThrow(/Invalid input for chat\/send/);
    expect(host.requests.get('chat/send')).toBeUndefined();
  });

  it('delivers valid events from the socket and drops malformed ones', async () => {
    host = await startLoopbackHost();
    const api = connect();
    const received = nextEvents(api, 2);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await host.connections(1);
    host.broadcast('{not json');
    host.broadcast(JSON.stringify({ type: 'turn/start', at: 'yesterday' }));
    host.broadcast(event({ type: 'turn/start', at: 1, text: 'hi', model: 'm' }));
    host.broadcast(event({ type: 'turn/end', at: 2, reason: 'done' }));
    expect((await received).map((entry) => entry.type)).toEqual(['turn/start', 'turn/end']);
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });

  it('tells notices from events by their type, each checked by its own schema only', async () => {
    host = await startLoopbackHost();
    const api = connect();
    const notices: string[] = [];
    api.onNotice((notice) =>
      notices.push(notice.type === 'device/event' ? `${notice.type} ${notice.deviceId}` : notice.type),
    );
    const received = nextEvents(api, 1);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const noticeChecks = vi.spyOn(hostNoticeSchema, 'safeParse');
    await host.connections(1);
    host.broadcast(JSON.stringify({ type: 'devices/changed' }));
    // A notice's type without what that notice carries: dropped, and not taken for an event either.
    host.broadcast(JSON.stringify({ type: 'device/event', event: 'pressed', data: {} }));
    host.broadcast(JSON.stringify({ type: 'device/event', deviceId: 'button-1', event: 'pressed', data: {} }));
    host.broadcast(event({ type: 'turn/end', at: 2, reason: 'done' }));
    expect((await received).map((entry) => entry.type)).toEqual(['turn/end']);
    expect(notices).toEqual(['devices/changed', 'device/event button-1']);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain('notice');
    // An event is checked against the events' schema alone: the notices' (a failed check, each time) only for the three notices.
    expect(noticeChecks).toHaveBeenCalledTimes(3);
    noticeChecks.mockRestore();
    warn.mockRestore();
  });

  it('reconnects after the socket drops and keeps delivering events', async () => {
    host = await startLoopbackHost();
    const api = connect();
    const states: string[] = [];
    api.onConnection((state) => states.push(state.status));
    // A standing subscriber: the client keeps (and restores) its socket while anyone listens.
    api.onEvent(() => undefined);
    const first = nextEvents(api, 1);
    await host.connections(1);
    host.broadcast(event({ type: 'step/start', at: 1, step: 0 }));
    await first;
    const reopened = host.connections(2);
    host.dropSockets();
    await reopened;
    await until(api, 'open');
    const second = nextEvents(api, 1);
    host.broadcast(event({ type: 'step/end', at: 2, step: 0 }));
    expect((await second)[0]?.type).toBe('step/end');
    expect(states).toEqual(['closed', 'connecting', 'open', 'closed', 'connecting', 'open']);
  });

  it('follows a host that restarts on the same address with the same token, saying so while it waits', async () => {
    host = await startLoopbackHost('kept-token');
    const port = Number(new URL(host.baseUrl).port);
    const api = connect({ token: 'kept-token', reconnectDelayMs: 20 });
    const messages: string[] = [];
    api.onConnection((state) => state.message && messages.push(state.message));
    api.onEvent(() => undefined);
    await until(api, 'open');
    await host.close();
    const waiting = until(api, 'closed');
    await waiting;
    host = await startLoopbackHost('kept-token', port);
    host.routes['app/info'] = () => ({
      result: { version: '1', transport: 'web', model: { label: 'x', scripted: true }, dataDir: '/d' },
    });
    await until(api, 'open');
    expect(messages[0]).toBe('Lost the connection to the host; reconnecting…');
    expect(messages.some((message) => message.startsWith('Reconnecting to the host (attempt'))).toBe(true);
  });

  it('stops knocking once a restarted host refuses the token (rotated), and says what to do', async () => {
    host = await startLoopbackHost('old-token');
    const port = Number(new URL(host.baseUrl).port);
    const api = connect({ token: 'old-token', reconnectDelayMs: 20 });
    api.onEvent(() => undefined);
    await until(api, 'open');
    await host.close();
    await until(api, 'closed');
    host = await startLoopbackHost('new-token', port);
    const states: ConnectionState[] = [];
    api.onConnection((state) => states.push(state));
    await until(api, 'unauthorized');
    expect(states.at(-1)?.message).toContain('If the token was rotated, open the address home-agent serve prints now.');
  });
});

describe('a page whose token the host refuses', () => {
  it('spends one wrong-token answer on its first calls, not one per call, and sends nothing more', async () => {
    host = await startLoopbackHost('the-right-token');
    const api = connect({ token: 'a-wrong-token' });
    const methods = ['app/info', 'conversations/list', 'devices/list', 'plugins/list', 'settings/get'] as const;
    const results = await Promise.allSettled(methods.map((method) => api.call(method, {} as never)));
    expect(results.map((result) => result.status)).toEqual(methods.map(() => 'rejected'));
    for (const result of results) expect((result as PromiseRejectedResult).reason).toMatchObject({ status: 401 });
    expect(host.refused).toBe(1);
    await expect(api.call('app/info', {})).rejects.toMatchObject({ status: 401 });
    expect(host.refused).toBe(1);
  });

  it('sends every call once the host has taken the token', async () => {
    host = await startLoopbackHost();
    host.routes['app/info'] = () => ({ result: { version: 'test' } });
    host.routes['conversations/list'] = () => ({ result: [] });
    const api = connect();
    await Promise.allSettled([api.call('app/info', {}), api.call('conversations/list', {} as never)]);
    expect([host.requests.get('app/info')?.length, host.requests.get('conversations/list')?.length]).toEqual([1, 1]);
    expect(host.refused).toBe(0);
  });
});
