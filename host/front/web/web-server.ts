import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { timingSafeEqual } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import type { HostNotice } from '../../contract/api-contract.ts';
import { ApiError } from '../../api/api-error.ts';
import type { ApiHandlers } from '../../api/api-handlers.ts';
import { apiFailureOf, dispatchApiCall } from '../../api/dispatch-api-call.ts';

/** Something front ends can subscribe to (agent events, notices). */
interface Subscribable<T> {
  subscribe(listener: (value: T) => void): () => void;
}
import { createHostAllowlist, isLoopbackName } from './host-allowlist.ts';
import { clientOf, WrongTokenLimiter } from './wrong-token-limiter.ts';
import { MIN_TOKEN_LENGTH, TokenFileError } from '../../secrets/token-file.ts';
import { HttpError, parseRequestUrl } from './http-error.ts';
import { bearerTokenOf } from '../../secrets/bearer-token-of.ts';
import { MAX_BODY_BYTES } from '../../config/max-body-bytes.ts';

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

function tokenMatches(expected: string | undefined, given: string | undefined | null): boolean {
  if (!expected || !given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * An endpoint another front end mounts beside the API (composed by host/front/front-ends.ts):
 * requests to its path reach it admitted (with its own credential, never the web token), with their
 * body parsed.
 */
export interface MountedEndpoint {
  /** Where it is served: `/NAME`. */
  path: string;
  /** The credential it takes now, read afresh at each request; undefined when none is kept. May throw TokenFileError. */
  credential(): string | undefined;
  /** How a refused request is told, in the endpoint's words. */
  refusals: {
    /** The web token came to this endpoint. */
    webToken: string;
    /** No credential, or a wrong one. */
    wrong: string;
    /** This endpoint's credential came to the API or the event stream. */
    atApi: string;
  };
  handle(request: http.IncomingMessage, response: http.ServerResponse, body: unknown): Promise<void>;
  close(): Promise<void>;
}

/** Which credential a request must carry: the person's web token, or a mounted endpoint's own. */
type Door = 'api' | MountedEndpoint;

export interface WebServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * The web transport: static renderer files, `POST /api/<method>` and the `/api/events` WebSocket.
 * Every request and the socket must name a Host (and, from a browser, an Origin) of this server;
 * every API request and the socket need the token, and a client that sends wrong tokens is slowed
 * down (429 with Retry-After). Binds 127.0.0.1 by default; a non-loopback bind without a token
 * of at least 16 characters refuses to start.
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
  /** More names this server answers to (a reverse proxy's, a DNS name of the home server). */
  allowedHosts?: readonly string[];
  /** The clock the wrong-token limit reads; injectable so tests need not wait. */
  now?: () => number;
  /** Served at their paths behind the same checks as the API, each with its own credential. */
  endpoints?: readonly MountedEndpoint[];
  /** Told when a browser's live stream opens (a person's window); the function it returns, when it closes. */
  onClientOpened?: () => () => void;
}): Promise<WebServer> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackName(host) && options.token.length < MIN_TOKEN_LENGTH) {
    throw new Error(
      `refusing to serve on ${host} without a token of at least ${MIN_TOKEN_LENGTH} characters: anyone on the network could control the home. Pass --token or bind 127.0.0.1.`,
    );
  }
  const staticRoot = path.resolve(options.staticDir);
  const allowlist = createHostAllowlist({
    bindHost: host,
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
  });
  const limiter = new WrongTokenLimiter(options.now ? { now: options.now } : {});
  const endpoints = options.endpoints ?? [];
  const server = http.createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      const failure =
        error instanceof HttpError
          ? { status: error.status, message: error.message, ...error.body }
          : apiFailureOf(error);
      if (!response.headersSent)
        response.writeHead(failure.status, {
          'content-type': 'application/json',
          ...SECURITY_HEADERS,
          ...(error instanceof HttpError ? error.headers : {}),
        });
      response.end(JSON.stringify({ ok: false, error: failure }));
    });
  });

  /** The checks every request and the socket pass first: a URL, a Host and an Origin of ours. */
  function admit(request: http.IncomingMessage): URL {
    const url = parseRequestUrl(request.url);
    const problem = allowlist.checkHost(request.headers.host) ?? allowlist.checkOrigin(request.headers.origin);
    if (problem !== undefined) throw new HttpError(403, problem);
    return url;
  }

  /**
   * The credential check of a door, slowed down per client: a client over its wrong-token allowance
   * gets 429. Each credential opens its own door only: an endpoint's credential at the API is a 403, the
   * web token at an endpoint a 401 naming the endpoint's credential. Neither is a guess, so neither
   * counts as a wrong token.
   */
  function authenticate(request: http.IncomingMessage, given: string | null | undefined, door: Door): void {
    const client = clientOf(request.socket.remoteAddress);
    const waitMs = limiter.retryAfterMs(client);
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new HttpError(429, `too many wrong tokens from this address: try again in ${seconds} s`, {
        headers: { 'retry-after': String(seconds) },
        body: { reason: 'rate_limited', retryAfterSeconds: seconds },
      });
    }
    if (door !== 'api') {
      if (tokenMatches(endpointCredential(door), given)) return;
      if (tokenMatches(options.token, given)) throw new HttpError(401, door.refusals.webToken);
      limiter.fail(client);
      throw new HttpError(401, door.refusals.wrong);
    }
    if (tokenMatches(options.token, given)) return;
    const opened = endpoints.find((endpoint) => tokenMatches(knownCredential(endpoint), given));
    if (opened !== undefined) throw new HttpError(403, opened.refusals.atApi);
    limiter.fail(client);
    throw new HttpError(401, 'missing or wrong token: open the URL the server printed (it carries #token=…)');
  }

  /** The credential to check an endpoint against; a file that cannot be used refuses every client, saying why. */
  function endpointCredential(endpoint: MountedEndpoint): string | undefined {
    try {
      return endpoint.credential();
    } catch (error) {
      if (error instanceof TokenFileError) throw new HttpError(503, `${endpoint.path} is closed: ${error.message}`);
      throw error;
    }
  }

  /** An endpoint's credential, for telling it apart at the API's door; an unusable file matches nothing (the endpoint reports it). */
  function knownCredential(endpoint: MountedEndpoint): string | undefined {
    try {
      return endpoint.credential();
    } catch (error) {
      if (error instanceof TokenFileError) return undefined;
      throw error;
    }
  }

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = admit(request);
    const endpoint = endpoints.find((mounted) => mounted.path === url.pathname);
    if (endpoint !== undefined) {
      // Checked as the API is: Host and Origin (above), a credential with its wrong-token limit, the body bound.
      authenticate(request, bearerTokenOf(request), endpoint);
      const body = request.method === 'POST' ? jsonOf(await readBody(request)) : undefined;
      await endpoint.handle(request, response, body);
      return;
    }
    if (url.pathname.startsWith('/api/')) {
      authenticate(request, bearerTokenOf(request), 'api');
      if (request.method !== 'POST') throw new ApiError(400, 'API calls are POST requests with a JSON body');
      const body = await readBody(request);
      const input = body.length === 0 ? {} : jsonOf(body);
      const result = await dispatchApiCall(options.handlers, decodePath(url.pathname.slice('/api/'.length)), input);
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', ...SECURITY_HEADERS });
      response.end(JSON.stringify({ ok: true, result }));
      return;
    }
    await serveStatic(url.pathname, response);
  }

  async function serveStatic(pathname: string, response: http.ServerResponse): Promise<void> {
    const relative = pathname === '/' ? 'index.html' : decodePath(pathname).replace(/^\/+/, '');
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
    try {
      const url = admit(request);
      if (url.pathname !== '/api/events') throw new HttpError(404, 'the event stream is at /api/events');
      authenticate(request, url.searchParams.get('token'), 'api');
    } catch (error) {
      const refusal = error instanceof HttpError ? error : new HttpError(400, (error as Error).message);
      const headers = Object.entries(refusal.headers).map(([name, value]) => `${name}: ${value}\r\n`);
      socket.write(
        `HTTP/1.1 ${refusal.status} ${http.STATUS_CODES[refusal.status]}\r\n${headers.join('')}Connection: close\r\n\r\n`,
      );
      socket.destroy();
      return;
    }
    sockets.handleUpgrade(request, socket, head, (client) => {
      clients.add(client);
      const closed = options.onClientOpened?.();
      const gone = (): void => {
        clients.delete(client);
        closed?.();
      };
      client.on('close', gone);
      client.on('error', gone);
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
      // Endpoints first: their running calls stop and are journaled before the host goes.
      await Promise.all(endpoints.map((endpoint) => endpoint.close()));
      unsubscribe();
      unsubscribeNotices?.();
      for (const client of clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A percent-decoded path; a malformed escape is the client's mistake (400), never a 500. */
function decodePath(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    throw new HttpError(400, `the path ${pathname.slice(0, 100)} is not valid percent-encoding`);
  }
}

/** A request body's JSON; a body that is not JSON is the client's mistake (400). */
function jsonOf(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw new ApiError(400, 'the request body is not JSON');
  }
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
