import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the server answers one request. */
export interface LoopbackReply {
  status?: number;
  headers?: Record<string, string>;
  /** The body, sent byte for byte. */
  body?: string | Uint8Array;
  /** Bytes per write (each write flushed separately); the whole body at once when absent. */
  chunkSize?: number;
  /** Destroy the connection after this many body bytes (a stream cut in the middle). */
  cutAfterBytes?: number;
  /** `'before-headers'`: never answer. `'after-body'`: send the body, then keep the response open. */
  silent?: 'before-headers' | 'after-body';
  /** After the body, keep writing `text` every `everyMs` until the client goes away (an SSE keep-alive). */
  trickle?: { text: string; everyMs: number };
  /**
   * After the body, each piece as it comes, flushed on its own (a test awaits events between pieces,
   * so the stream pauses exactly where the test says); the response ends when it is done, unless
   * `silent` says otherwise. Its signal fires when the client goes away.
   */
  pieces?: (signal: AbortSignal) => AsyncIterable<string>;
}

/** One request as the server received it. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A reply worked out from the request it answers (a server that refuses some requests, say). */
export type LoopbackResponder = (request: RecordedRequest) => LoopbackReply;

/**
 * A real HTTP server on 127.0.0.1 (port 0) that replays scripted replies; `close` frees everything.
 * The agent's look-ups of a model's context window (`isContextLookup`) are not scripted replies:
 * they are answered 404 (a server that does not say) unless `answerLookups` is given a responder,
 * and kept in `lookups`, apart from `requests`.
 */
export interface LoopbackModelServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  readonly lookups: RecordedRequest[];
  /** How look-ups are answered from now on (default: 404). */
  answerLookups(responder: LoopbackResponder): void;
  /**
   * Scripts the replies to come (replacing any left): used in order, the last one repeats. A
   * responder is asked with the request each time it is used.
   */
  reply(...replies: (LoopbackReply | LoopbackResponder)[]): void;
  /** Resolves once `count` requests have arrived. */
  waitForRequests(count: number): Promise<void>;
  /** Resolves once the client has closed the connection of the `count`-th request (1-based). */
  waitForClientClose(count: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * True for the requests Home Agent makes to learn a context window (core/models/<provider>/<provider>-context-window.ts):
 * llama.cpp `/props`, LM Studio `/api/v0/models`, Ollama `/api/show`, and the OpenAI-style model list
 * asked for as JSON (`home-agent models` asks for the same list without an accept header).
 */
export function isContextLookup(request: {
  method: string;
  url: string;
  headers: RecordedRequest['headers'];
}): boolean {
  const path = new URL(request.url, 'http://loopback').pathname;
  if (path.endsWith('/props') || path.endsWith('/api/v0/models') || path.endsWith('/api/show')) return true;
  return request.method === 'GET' && path.endsWith('/models') && request.headers.accept === 'application/json';
}

/** Starts a loopback model server. */
export async function startLoopbackModelServer(): Promise<LoopbackModelServer> {
  const replies: (LoopbackReply | LoopbackResponder)[] = [];
  const requests: RecordedRequest[] = [];
  const lookups: RecordedRequest[] = [];
  let lookupResponder: LoopbackResponder = () => ({ status: 404, body: '{"error":"not found"}' });
  const waiters: { count: number; resolve: () => void }[] = [];
  const closes: Promise<void>[] = [];
  const server: Server = createServer((incoming, response) => {
    void handle(incoming, response);
  });

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const request: RecordedRequest = {
      method: incoming.method ?? '',
      url: incoming.url ?? '',
      headers: incoming.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    if (isContextLookup(request)) {
      lookups.push(request);
      await send(lookupResponder(request), response);
      return;
    }
    requests.push(request);
    closes.push(new Promise<void>((resolve) => response.once('close', () => resolve())));
    for (const waiter of waiters.filter((entry) => requests.length >= entry.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    const next = (replies.length > 1 ? replies.shift() : replies[0]) ?? { status: 500, body: 'no reply scripted' };
    await send(typeof next === 'function' ? next(request) : next, response);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    lookups,
    answerLookups: (responder) => {
      lookupResponder = responder;
    },
    reply: (...next) => {
      replies.splice(0, replies.length, ...next);
    },
    waitForClientClose: async (count) => {
      await new Promise<void>((resolve) => (requests.length >= count ? resolve() : waiters.push({ count, resolve })));
      await closes[count - 1];
    },
    waitForRequests: (count) =>
      requests.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve })),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function send(reply: LoopbackReply, response: ServerResponse): Promise<void> {
  if (reply.silent === 'before-headers') return;
  const body =
    typeof reply.body === 'string' ? Buffer.from(reply.body, 'utf8') : Buffer.from(reply.body ?? new Uint8Array());
  response.writeHead(reply.status ?? 200, { 'content-type': 'text/event-stream', ...reply.headers });
  response.flushHeaders();
  const limit = reply.cutAfterBytes ?? body.length;
  const size = reply.chunkSize ?? Math.max(1, body.length);
  for (let offset = 0; offset < Math.min(limit, body.length); offset += size) {
    const end = Math.min(offset + size, limit, body.length);
    await new Promise<void>((resolve) => response.write(body.subarray(offset, end), () => resolve()));
    // Give each write its own turn of the event loop so it leaves as its own TCP segment.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (reply.cutAfterBytes !== undefined) {
    response.socket?.destroy();
    return;
  }
  if (reply.pieces) {
    const gone = new AbortController();
    response.once('close', () => gone.abort());
    for await (const piece of reply.pieces(gone.signal)) {
      if (gone.signal.aborted) return;
      await new Promise<void>((resolve) => response.write(piece, () => resolve()));
    }
  }
  if (reply.silent === 'after-body') return;
  if (reply.trickle) {
    const { text, everyMs } = reply.trickle;
    const timer = setInterval(() => response.write(text), everyMs);
    response.once('close', () => clearInterval(timer));
    return;
  }
  response.end();
}
