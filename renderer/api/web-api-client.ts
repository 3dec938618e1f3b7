import { z } from 'zod';
import {
  agentEventSchema,
  apiContract,
  apiEnvelopeSchema,
  hostNoticeSchema,
  type ApiInput,
  type ApiMethod,
  type ApiOutput,
  type HostAgentEvent,
  type HostNotice,
} from '../../host/contract/api-contract.ts';
import { ApiCallError, parseJson, type ApiClient, type ConnectionState } from './api-client.ts';
import { outputOfEnvelope } from './output-of-envelope.ts';

/** Where and how the web client reaches `home-agent serve`. */
export interface WebApiClientOptions {
  /** e.g. `http://127.0.0.1:5173`; API paths are appended to it. */
  baseUrl: string;
  token: string;
  /** Per request; the host answers quickly or something is wrong. */
  requestTimeoutMs?: number;
  /** First reconnect delay; doubles up to `maxReconnectDelayMs`. */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  /** The WebSocket class (the browser's by default; tests pass the `ws` package's). */
  WebSocketImpl?: new (url: string) => WebSocket;
}

// Older hosts sent failures without a status; the HTTP status stands in for it.
const envelopeSchema = z.union([
  apiEnvelopeSchema,
  z.object({ ok: z.literal(false), error: z.object({ message: z.string() }) }),
]);

// A WebSocket close code a host may use for a refused token (4401 mirrors HTTP 401).
const UNAUTHORIZED_CLOSE_CODE = 4401;

/**
 * The API over HTTP (`POST /api/<method>`, bearer token) and live events over one WebSocket
 * (`/api/events?token=`), opened on the first subscriber and reopened with backoff until disposed.
 */
export function createWebApiClient(options: WebApiClientOptions): ApiClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const firstDelayMs = options.reconnectDelayMs ?? 500;
  // A restarted host is back within seconds: keep trying often enough that an open tab follows it promptly.
  const maxDelayMs = options.maxReconnectDelayMs ?? 4_000;
  const SocketClass = options.WebSocketImpl ?? WebSocket;
  const eventListeners = new Set<(event: HostAgentEvent) => void>();
  const noticeListeners = new Set<(notice: HostNotice) => void>();
  const connectionListeners = new Set<(state: ConnectionState) => void>();
  const inFlight = new Set<AbortController>();
  let connection: ConnectionState = { status: 'closed' };
  let socket: WebSocket | undefined;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let delayMs = firstDelayMs;
  let disposed = false;
  // Attempts since the link was last open: 0 for the first connection of the page.
  let attempts = 0;

  function setConnection(next: ConnectionState): void {
    connection = next;
    for (const listener of connectionListeners) listener(next);
  }

  function connect(): void {
    if (disposed || socket || eventListeners.size === 0) return;
    const url = new URL(`${baseUrl}/api/events`);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('token', options.token);
    setConnection(
      attempts === 0
        ? { status: 'connecting' }
        : { status: 'connecting', message: `Reconnecting to the host (attempt ${attempts})…` },
    );
    const opened = new SocketClass(url.toString());
    socket = opened;
    let wasOpen = false;
    // A failed socket also closes: the close handler decides what to do, the error adds nothing.
    opened.onerror = () => undefined;
    opened.onopen = () => {
      wasOpen = true;
      delayMs = firstDelayMs;
      attempts = 0;
      setConnection({ status: 'open' });
    };
    opened.onmessage = (message: MessageEvent) => {
      if (typeof message.data !== 'string') return;
      const json = parseJson(message.data);
      if (!json.ok) {
        console.warn('Dropped a malformed event from the host:', json.error);
        return;
      }
      // Notices (changes outside a turn) share the socket; their type says which a message is, so each
      // is checked by its own schema only (a failed check costs more than a passed one, on every event).
      if (isNoticeType(json.value)) {
        const notice = hostNoticeSchema.safeParse(json.value);
        if (notice.success) for (const listener of noticeListeners) listener(notice.data);
        else console.warn('Dropped a malformed notice from the host:', notice.error.message);
        return;
      }
      const parsed = agentEventSchema.safeParse(json.value);
      if (!parsed.success) {
        console.warn('Dropped a malformed event from the host:', parsed.error.message);
        return;
      }
      for (const listener of eventListeners) listener(parsed.data);
    };
    opened.onclose = (close: CloseEvent) => {
      if (socket !== opened) return;
      socket = undefined;
      if (disposed) return;
      // A refused token stays refused: reconnecting would only knock on the door again.
      if (close.code === UNAUTHORIZED_CLOSE_CODE || connection.status === 'unauthorized') {
        setConnection({
          status: 'unauthorized',
          message:
            connection.message ?? 'The host refused this page’s token. Open the address printed by home-agent serve.',
        });
        return;
      }
      attempts += 1;
      setConnection({
        status: 'closed',
        message: wasOpen
          ? 'Lost the connection to the host; reconnecting…'
          : `The host is not answering; trying again in ${Math.round(delayMs / 1000) || 1} s (it may be restarting)…`,
      });
      // A socket refused before it opened may be a token the host no longer takes (rotated): ask over
      // HTTP, whose 401 says so (a browser hides the socket's status); anything else is worth retrying.
      if (wasOpen) scheduleReconnect();
      else void tokenStillTaken().then((taken) => taken && scheduleReconnect());
    };
  }

  /** False when the host answers and refuses the token (the connection is then `unauthorized`). */
  async function tokenStillTaken(): Promise<boolean> {
    try {
      await call('app/info', {});
      return true;
    } catch (error) {
      return !(error instanceof ApiCallError && error.status === 401);
    }
  }

  function scheduleReconnect(): void {
    if (disposed || reconnectTimer !== undefined || eventListeners.size === 0) return;
    if (connection.status === 'unauthorized') return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      connect();
    }, delayMs);
    delayMs = Math.min(delayMs * 2, maxDelayMs);
  }

  /** The first call's answer, while the host has not yet taken the token. */
  let tokenAsked: Promise<void> | undefined;
  /** Whether the host answered a call with anything but 401 (the token is good, or the host did not say). */
  let tokenTaken = false;

  /** Whether the host refused this page's token (a state set by answers and the socket alike). */
  function tokenRefused(): boolean {
    return connection.status === 'unauthorized';
  }

  async function call<M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>> {
    if (disposed) throw new ApiCallError({ method, message: 'The API client was disposed.' });
    const body = apiContract[method].input.safeParse(input);
    if (!body.success)
      throw new ApiCallError({ method, message: `Invalid input for ${method}: ${body.error.message}` });
    if (tokenRefused()) throw refusedHere(method);
    // Until the host has taken the token once, one call asks and the others wait for its answer: a page
    // opened with a wrong token spends one wrong-token answer, not one per call of its first moment.
    if (!tokenTaken) {
      if (tokenAsked === undefined) {
        const asked = send(method, body.data);
        tokenAsked = asked.then(
          () => undefined,
          () => undefined,
        );
        // Settled without a verdict (the host did not answer): the next call asks again.
        void tokenAsked.then(() => (tokenAsked = undefined));
        return asked;
      }
      await tokenAsked;
      if (tokenRefused()) throw refusedHere(method);
    }
    return send(method, body.data);
  }

  /** A call not sent because the host already refused this page's token. */
  function refusedHere(method: ApiMethod): ApiCallError {
    return new ApiCallError({
      method,
      status: 401,
      message:
        connection.message ?? 'The host refused this page’s token. Open the address printed by home-agent serve.',
    });
  }

  async function send<M extends ApiMethod>(method: M, data: unknown): Promise<ApiOutput<M>> {
    const controller = new AbortController();
    inFlight.add(controller);
    const signal = AbortSignal.any([controller.signal, AbortSignal.timeout(requestTimeoutMs)]);
    try {
      const response = await fetch(`${baseUrl}/api/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${options.token}` },
        body: JSON.stringify(data),
        signal,
      });
      if (response.status !== 401) tokenTaken = true;
      const json = parseJson(await response.text());
      const envelope = json.ok ? envelopeSchema.safeParse(json.value) : undefined;
      if (!envelope?.success) {
        throw new ApiCallError({
          method,
          status: response.status,
          message: `The host answered ${method} with HTTP ${response.status} and no readable body.`,
        });
      }
      if (!envelope.data.ok && response.status === 401)
        setConnection({
          status: 'unauthorized',
          message: `The host refused this page's token (${envelope.data.error.message}). If the token was rotated, open the address home-agent serve prints now.`,
        });
      return outputOfEnvelope({ method, envelope: envelope.data, status: response.status });
    } catch (error) {
      if (error instanceof ApiCallError) throw error;
      const timedOut = signal.aborted && !controller.signal.aborted;
      throw new ApiCallError({
        method,
        message: timedOut
          ? `${method} got no answer in ${requestTimeoutMs} ms.`
          : `${method} failed: ${describe(error)}`,
      });
    } finally {
      inFlight.delete(controller);
    }
  }

  return {
    transport: 'web',
    call,
    onEvent(listener) {
      eventListeners.add(listener);
      connect();
      return () => {
        eventListeners.delete(listener);
      };
    },
    onNotice(listener) {
      noticeListeners.add(listener);
      return () => {
        noticeListeners.delete(listener);
      };
    },
    onConnection(listener) {
      connectionListeners.add(listener);
      listener(connection);
      return () => {
        connectionListeners.delete(listener);
      };
    },
    dispose() {
      disposed = true;
      if (reconnectTimer !== undefined) clearTimeout(reconnectTimer);
      reconnectTimer = undefined;
      for (const controller of inFlight) controller.abort();
      const open = socket;
      socket = undefined;
      open?.close();
      eventListeners.clear();
      noticeListeners.clear();
      connectionListeners.clear();
    },
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The types a notice has: every other message on the socket is an agent event. */
const NOTICE_TYPES: ReadonlySet<unknown> = new Set(hostNoticeSchema.options.map((option) => option.shape.type.value));

function isNoticeType(value: unknown): boolean {
  return typeof value === 'object' && value !== null && NOTICE_TYPES.has((value as { type?: unknown }).type);
}
