import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerTransport } from './mcp-config.ts';
import type { McpOAuth } from './oauth/mcp-oauth.ts';
import type { SentWatch } from './sent-watch.ts';

/** How often a stream the server closed is resumed (each time after its `retry`) before the call is left to its deadline. */
export const RESUME_ATTEMPTS = 2;

/** A transport to one server, with what the SDK's own does not keep: the child's pid, and a way to kill it. */
export interface OpenedTransport {
  transport: Transport;
  /** The child's pid once started (stdio), kept even after the SDK forgets it. */
  pid(): number | undefined;
  /** Kills the child (stdio) if it still runs; nothing for HTTP. */
  kill(): void;
  /** Resolves once the child has exited (stdio); at once for HTTP. */
  exited(): Promise<void>;
}

/**
 * Makes the transport of one connection. stdio: the SDK's `StdioClientTransport` (its environment
 * is the SDK's small safe set plus `env`), its stderr handed to `stderr`, messages bounded by
 * `maxMessageBytes` (past it the SDK drops the connection). Streamable HTTP: the SDK's transport over
 * a fetch that bounds every message the same way and reports a lost connection (a refused or reset
 * socket, a cut stream) through `lost` at once, since the SDK would leave the calls waiting.
 * Either way a `tools/call` registered with `watch` is fired when its request has left.
 */
export function openTransport(options: {
  transport: McpServerTransport;
  maxMessageBytes: number;
  watch: SentWatch;
  stderr: (chunk: Buffer) => void;
  lost: (why: string) => void;
  /** OAuth 2.1 for a Streamable HTTP server that answers 401 (the SDK signs in through its provider). */
  oauth?: McpOAuth;
}): OpenedTransport {
  const { transport } = options;
  if (transport.kind === 'stdio') {
    const inner = new StdioClientTransport({
      command: transport.command,
      args: transport.args,
      env: transport.env,
      ...(transport.cwd !== undefined ? { cwd: transport.cwd } : {}),
      stderr: 'pipe',
      maxBufferSize: options.maxMessageBytes,
    });
    inner.stderr?.on('data', (chunk: Buffer) => options.stderr(chunk));
    let pid: number | undefined;
    const watched = new WatchedTransport(inner, options.watch, {
      firesOnSend: true,
      started: () => (pid = inner.pid ?? undefined),
    });
    return {
      transport: watched,
      pid: () => (watched.closed ? undefined : pid),
      kill: () => {
        // After the child's exit its pid may be another process's: only a child still running is killed.
        if (pid === undefined || watched.closed) return;
        try {
          process.kill(pid, 'SIGKILL');
        } catch (error) {
          // ESRCH: it has already exited, which is what killing it was for.
          if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
        }
      },
      exited: () => (pid === undefined || watched.closed ? Promise.resolve() : watched.whenClosed),
    };
  }
  const { oauth } = options;
  const inner = new StreamableHTTPClientTransport(new URL(transport.url), {
    requestInit: { headers: transport.headers },
    ...(oauth ? { authProvider: oauth.provider } : {}),
    fetch: watchedFetch({
      watch: options.watch,
      maxMessageBytes: options.maxMessageBytes,
      lost: options.lost,
      ...(oauth ? { challenged: (response: Response) => oauth.challenged(response) } : {}),
    }),
    // A stream the server closed after an event id (SEP-1699) is resumed with GET and Last-Event-ID,
    // after the server's own `retry` when it sent one (the SDK's rule), else after a second. A stream
    // that breaks is a lost connection here (`boundMessages` says so), not resumed behind the calls' backs.
    reconnectionOptions: {
      maxRetries: RESUME_ATTEMPTS,
      initialReconnectionDelay: 1_000,
      maxReconnectionDelay: 1_000,
      reconnectionDelayGrowFactor: 1,
    },
  });
  return {
    transport: new WatchedTransport(inner, options.watch, { firesOnSend: false }),
    pid: () => undefined,
    kill: () => {},
    exited: () => Promise.resolve(),
  };
}

/** The SDK's transport, with `watch` told when a request has left (on write for stdio; HTTP's fetch tells it). */
class WatchedTransport implements Transport {
  /** The SDK reported the transport closed (for stdio: the child has exited). */
  closed = false;
  /** Resolves when `closed` becomes true. */
  readonly whenClosed: Promise<void>;
  private markClosed: () => void = () => {};
  private closeListener: Transport['onclose'];

  constructor(
    private readonly inner: Transport,
    private readonly watch: SentWatch,
    private readonly options: { firesOnSend: boolean; started?: () => void },
  ) {
    this.whenClosed = new Promise((resolve) => (this.markClosed = resolve));
    // The SDK sets its own onclose when it connects; until then a close is still noticed.
    this.onclose = undefined;
  }

  async start(): Promise<void> {
    await this.inner.start();
    this.options.started?.();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const watched = this.watch.claim(message) !== undefined && 'id' in message ? message.id : undefined;
    try {
      await this.inner.send(message, options);
    } catch (error) {
      if (watched !== undefined) this.watch.drop(watched);
      throw error;
    }
    if (watched !== undefined && this.options.firesOnSend) this.watch.fire(watched);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  get onclose(): Transport['onclose'] {
    return this.closeListener;
  }
  set onclose(listener: Transport['onclose']) {
    this.closeListener = listener;
    this.inner.onclose = () => {
      this.closed = true;
      this.markClosed();
      this.closeListener?.();
    };
  }
  get onerror(): Transport['onerror'] {
    return this.inner.onerror;
  }
  set onerror(listener: Transport['onerror']) {
    this.inner.onerror = listener;
  }
  get onmessage(): Transport['onmessage'] {
    return this.inner.onmessage;
  }
  set onmessage(listener: Transport['onmessage']) {
    this.inner.onmessage = listener;
  }
  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }
  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
}

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * fetch for the Streamable HTTP transport: fires `watch` for a `tools/call` once the server has its
 * request (a response came, or the socket failed after connecting), drops it when the connection
 * was refused (nothing left); bounds every message of a response (a JSON body, or one SSE event) to
 * `maxMessageBytes`; and reports through `lost` a connection that failed or a stream that broke.
 */
function watchedFetch(options: {
  watch: SentWatch;
  maxMessageBytes: number;
  lost: (why: string) => void;
  /** The server asked for sign-in or more scope (401, 403): told before the SDK's auth reads the answer. */
  challenged?: (response: Response) => Promise<void>;
}): Fetch {
  return async (url, init) => {
    const id = requestIdOf(init?.body);
    let response: Response;
    try {
      response = await fetch(url, init);
    } catch (error) {
      if (id !== undefined) {
        if (refusedBeforeSending(error)) options.watch.drop(id);
        else options.watch.fire(id);
      }
      if (!init?.signal?.aborted) options.lost(`could not reach the server (${describeFetchError(error)})`);
      throw error;
    }
    if (response.status === 401 || response.status === 403) {
      // Refused before it acted: sent only when the SDK's retry with a token is answered (else dropped as unsent).
      await options.challenged?.(response);
    } else if (id !== undefined) options.watch.fire(id);
    if (response.body === null) return response;
    const eventStream = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    const body = boundMessages(response.body, {
      maxMessageBytes: options.maxMessageBytes,
      eventStream,
      lost: (why) => {
        if (!init?.signal?.aborted) options.lost(why);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** The JSON-RPC id of a request body we send (our own JSON), if it is one. */
function requestIdOf(body: unknown): string | number | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const message = JSON.parse(body) as { id?: unknown; method?: unknown };
    return typeof message.method === 'string' && (typeof message.id === 'number' || typeof message.id === 'string')
      ? message.id
      : undefined;
  } catch {
    // Not JSON: not one of our requests, so nothing waits for it.
    return undefined;
  }
}

/** A connection refused or a name not found: the request never left this machine. */
function refusedBeforeSending(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } })?.cause?.code;
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EHOSTUNREACH';
}

function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return (error as Error)?.message ?? String(error);
}

/**
 * A response body that fails (and reports `lost`) when one message grows past `maxMessageBytes`:
 * an SSE event is counted from the last blank line, a JSON body as a whole. A body that breaks while
 * read is reported too: the server went away in the middle of an answer.
 */
function boundMessages(
  source: ReadableStream<Uint8Array>,
  options: { maxMessageBytes: number; eventStream: boolean; lost: (why: string) => void },
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let sinceBoundary = 0;
  let newlines = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        options.lost(`the connection broke while the server answered (${describeFetchError(error)})`);
        controller.error(error);
        return;
      }
      if (chunk.done) {
        controller.close();
        return;
      }
      const bytes = chunk.value;
      if (options.eventStream) {
        for (const byte of bytes) {
          if (byte === 0x0a) {
            newlines += 1;
            if (newlines >= 2) sinceBoundary = 0;
          } else if (byte !== 0x0d) {
            newlines = 0;
            sinceBoundary += 1;
          }
        }
      } else sinceBoundary += bytes.length;
      if (sinceBoundary > options.maxMessageBytes) {
        const why = `the server sent a message over ${options.maxMessageBytes} bytes`;
        // Its rest is not wanted; cancelling may fail if the socket is already gone.
        reader.cancel(why).catch(() => undefined);
        options.lost(why);
        controller.error(new Error(why));
        return;
      }
      controller.enqueue(bytes);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
