import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { timingSafeEqual } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AgentEvent } from '../../core/events/agent-event.ts';
import type { HostNotice } from '../contract/api-contract.ts';
import { ApiError } from '../api/api-error.ts';
import type { ApiHandlers } from '../api/api-handlers.ts';
import { apiFailureOf, dispatchApiCall } from '../api/dispatch-api-call.ts';

/** Something front ends can subscribe to (agent events, notices). */
interface Subscribable<T> {
  subscribe(listener: (value: T) => void): () => void;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
};

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const MAX_BODY_BYTES = 256 * 1024;

function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === '::1' || host === 'localhost' || host.startsWith('127.');
}

function tokenMatches(expected: string, given: string | undefined | null): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface WebServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * The web transport: static renderer files, `POST /api/<method>` and the `/api/events` WebSocket.
 * Every API request and the socket need the token. Binds 127.0.0.1 by default; a non-loopback
 * bind without a token refuses to start.
 */
export async function startWebServer(options: {
  handlers: ApiHandlers;
  bus: Subscribable<AgentEvent>;
  /** Changes outside a turn, sent on the same socket. */
  notices?: Subscribable<HostNotice>;
  staticDir: string;
  host?: string;
  port?: number;
  token: string;
}): Promise<WebServer> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopback(host) && options.token.length < 16) {
    throw new Error(
      `refusing to serve on ${host} without a token of at least 16 characters: anyone on the network could control the home. Pass --token or bind 127.0.0.1.`,
    );
  }
  const staticRoot = path.resolve(options.staticDir);
  const server = http.createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      const failure = apiFailureOf(error);
      if (!response.headersSent)
        response.writeHead(failure.status, { 'content-type': 'application/json', ...SECURITY_HEADERS });
      response.end(JSON.stringify({ ok: false, error: failure }));
    });
  });

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname.startsWith('/api/')) {
      const auth = request.headers.authorization;
      if (!tokenMatches(options.token, auth?.startsWith('Bearer ') ? auth.slice(7) : undefined))
        throw new ApiError(401, 'missing or wrong token: open the URL the server printed (it carries #token=…)');
      if (request.method !== 'POST') throw new ApiError(400, 'API calls are POST requests with a JSON body');
      const body = await readBody(request);
      let input: unknown;
      try {
        input = body.length === 0 ? {} : JSON.parse(body);
      } catch {
        throw new ApiError(400, 'the request body is not JSON');
      }
      const result = await dispatchApiCall(options.handlers, url.pathname.slice('/api/'.length), input);
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', ...SECURITY_HEADERS });
      response.end(JSON.stringify({ ok: true, result }));
      return;
    }
    await serveStatic(url.pathname, response);
  }

  async function serveStatic(pathname: string, response: http.ServerResponse): Promise<void> {
    const relative = pathname === '/' ? 'index.html' : decodeURIComponent(pathname).replace(/^\/+/, '');
    const file = path.resolve(staticRoot, relative);
    if (!file.startsWith(staticRoot + path.sep)) throw new ApiError(403, 'forbidden');
    let content: Buffer;
    try {
      content = await readFile(file);
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain', ...SECURITY_HEADERS });
      response.end(
        relative === 'index.html'
          ? 'The UI is not built: run `npm run build:renderer` (npm start does it for you).'
          : 'not found',
      );
      return;
    }
    response.writeHead(200, {
      'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
      ...SECURITY_HEADERS,
    });
    response.end(content);
  }

  const sockets = new WebSocketServer({ noServer: true });
  const clients = new Set<WebSocket>();
  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== '/api/events' || !tokenMatches(options.token, url.searchParams.get('token'))) {
      socket.write('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n');
      socket.destroy();
      return;
    }
    sockets.handleUpgrade(request, socket, head, (client) => {
      clients.add(client);
      client.on('close', () => clients.delete(client));
      client.on('error', () => clients.delete(client));
    });
  });
  const broadcast = (message: unknown): void => {
    const text = JSON.stringify(message);
    for (const client of clients) if (client.readyState === client.OPEN) client.send(text);
  };
  const unsubscribe = options.bus.subscribe((event: AgentEvent) => broadcast(event));
  const unsubscribeNotices = options.notices?.subscribe((notice) => broadcast(notice));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    port,
    url: `http://${shownHost}:${port}/`,
    close: async () => {
      unsubscribe();
      unsubscribeNotices?.();
      for (const client of clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function readBody(request: http.IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new ApiError(400, `the request body is larger than ${MAX_BODY_BYTES} bytes`);
    parts.push(chunk as Buffer);
  }
  return Buffer.concat(parts).toString('utf8');
}
