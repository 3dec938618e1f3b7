import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ApiMethod, HostAgentEvent } from '../../../host/contract/api-contract.ts';

/** A route's answer: a result (200, ok) or a failure (status, message, and for a refused value its field and issues). */
export type RouteAnswer =
  | { result: unknown }
  | { status: number; message: string; field?: string; issues?: { path: string; message: string }[] };

/**
 * A real loopback server speaking the host's web transport (POST /api/<method> with a bearer
 * token, events on /api/events?token=) with routes the test supplies: a working fake of the host.
 */
export interface LoopbackHost {
  baseUrl: string;
  token: string;
  /** Bodies of the requests received, per method, in order. */
  requests: Map<string, unknown[]>;
  /** How many requests it refused for a missing or wrong token. */
  refused: number;
  routes: Partial<Record<ApiMethod, (body: unknown) => RouteAnswer | Promise<RouteAnswer>>>;
  /** Sends one event (or raw text) to every connected socket. */
  broadcast(event: HostAgentEvent | string): void;
  /** Resolves when `count` sockets are connected in total since start. */
  connections(count: number): Promise<void>;
  /** Drops every open socket, as a host restart would. */
  dropSockets(): void;
  close(): Promise<void>;
}

/** Starts the loopback host on 127.0.0.1 and a free port (or `port`: a host restarting where it was). */
export async function startLoopbackHost(token = 'test-token', port = 0): Promise<LoopbackHost> {
  const requests = new Map<string, unknown[]>();
  const sockets = new Set<WebSocket>();
  const waiters: { count: number; resolve: () => void }[] = [];
  let connected = 0;
  const host = {} as LoopbackHost;

  const server: Server = createServer((request, response) => {
    void handle(request).then((answer) => {
      const status = 'result' in answer ? 200 : answer.status;
      const body = 'result' in answer ? { ok: true, result: answer.result } : { ok: false, error: answer };
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });

  async function handle(request: IncomingMessage): Promise<RouteAnswer> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (request.headers.authorization !== `Bearer ${token}`) {
      host.refused += 1;
      return { status: 401, message: 'Missing or wrong token.' };
    }
    const method = (request.url ?? '').replace(/^\/api\//, '') as ApiMethod;
    // The test's own client sent this body; parsing it here is the fake's job, not untrusted input.
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    requests.set(method, [...(requests.get(method) ?? []), body]);
    const route = host.routes[method];
    return route ? route(body) : { status: 404, message: `No route ${method}` };
  }

  const sockets$ = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/api/events' || url.searchParams.get('token') !== token) {
      socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
      return;
    }
    sockets$.handleUpgrade(request, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      connected += 1;
      for (const waiter of waiters.filter((entry) => entry.count <= connected)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    });
  });

  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  Object.assign(host, {
    baseUrl: `http://127.0.0.1:${bound}`,
    token,
    requests,
    refused: 0,
    routes: {},
    broadcast(event: HostAgentEvent | string) {
      const text = typeof event === 'string' ? event : JSON.stringify(event);
      for (const ws of sockets) ws.send(text);
    },
    connections(count: number) {
      if (connected >= count) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push({ count, resolve }));
    },
    dropSockets() {
      for (const ws of sockets) ws.terminate();
    },
    async close() {
      for (const ws of sockets) ws.terminate();
      sockets$.close();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  } satisfies LoopbackHost);
  return host;
}
