import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { AppInfo } from '../../contract/api-contract.ts';
import { bearerTokenOf } from '../../secrets/bearer-token-of.ts';
import { readToken, TokenFileError } from '../../secrets/token-file.ts';
import { McpSession, type ServedHome } from './mcp-session.ts';
import { MCP_TOKEN, SHOW_MCP_TOKEN } from './mcp-token.ts';

/**
 * The most MCP sessions served at once over HTTP. Each keeps a little memory (its server, its
 * stream), so their number is bounded: a client past it takes the place of the session idle the
 * longest (no call running), or, when none may give way, is answered 503. Many clients never end
 * their sessions (the official conformance suite leaves 30 open in a few seconds), so the bound
 * leaves room for them before anyone has to wait the idle time out.
 */
export const MAX_HTTP_SESSIONS = 64;
/**
 * A session gives way to a newcomer only once it has had no request for this long: a client in use
 * talks far more often, and a credential holder opening sessions in a loop closes at most
 * MAX_HTTP_SESSIONS of them a minute instead of ~150 a second.
 */
export const MIN_IDLE_BEFORE_EVICTION_MS = 60_000;
/** Sessions closed to make room are logged at most once per this interval, with how many: a churn cannot flood the log. */
export const EVICTION_LOG_INTERVAL_MS = 60_000;

/** Where MCP clients reach this server, and the credential they send (or why it cannot be read). */
export type McpAccess = NonNullable<AppInfo['mcp']>;

interface HttpSession {
  session: McpSession;
  transport: StreamableHTTPServerTransport;
  lastUsed: number;
  /** The MCP credential it was opened with: a rotation ends it. */
  credential: string | undefined;
}

/**
 * `/mcp` of `serve --mcp`: the Streamable HTTP transport, one McpSession per client session
 * (`Mcp-Session-Id`). The web server admits a request first (Host, Origin, token, wrong-token
 * limit, body size) and hands it here with its body already read and parsed.
 */
export class McpHttpEndpoint {
  /** Where `serve` mounts it. */
  readonly path = '/mcp';
  /** How the web server refuses a request here, or this credential at the API. */
  readonly refusals = {
    webToken: `this is the web token, for the person's own front ends; /mcp takes the MCP credential, which ${SHOW_MCP_TOKEN} prints`,
    wrong: `missing or wrong MCP credential: send the one ${SHOW_MCP_TOKEN} prints as Authorization: Bearer …`,
    atApi:
      'this is the MCP credential: it opens /mcp only, never the API or the event stream; the person’s front ends use the web token (`home-agent token show`)',
  };
  private readonly sessions = new Map<string, HttpSession>();
  /** Sessions made but not yet initialized: counted against the bound too. */
  private opening = 0;
  private closed = false;
  private url: string | undefined;
  /** Sessions closed to make room and not logged yet, and when that was last logged. */
  private evictedUnlogged = 0;
  private evictionLoggedAt: number | undefined;

  constructor(
    private readonly home: ServedHome,
    private readonly options: {
      version: string;
      log: (line: string) => void;
      /** The data folder whose `mcp-token` is the credential `/mcp` takes. */
      dataDir: string;
      now?: () => number;
    },
  ) {}

  /**
   * The credential `/mcp` takes now, read afresh from the data folder (so a rotation holds from the
   * next request); sessions opened with another one are closed first. Undefined when none is kept; a
   * TokenFileError when the file cannot be used (then every session is closed).
   */
  credential(): string | undefined {
    let current: string | undefined;
    try {
      current = readToken(this.options.dataDir, MCP_TOKEN);
    } catch (error) {
      this.closeSessionsNotOpenedWith(undefined);
      throw error;
    }
    this.closeSessionsNotOpenedWith(current);
    return current;
  }

  /** Records the address `/mcp` is served at, for `access()`. */
  servedAt(url: string): void {
    this.url = url;
  }

  /** Where MCP clients reach this server and with which credential, for the person's front ends; undefined before it serves. */
  access(): McpAccess | undefined {
    if (this.url === undefined) return undefined;
    try {
      const credential = this.credential();
      return credential === undefined
        ? { url: this.url, problem: `No MCP credential is kept in the data folder: ${SHOW_MCP_TOKEN} makes one.` }
        : { url: this.url, credential };
    } catch (error) {
      if (error instanceof TokenFileError) return { url: this.url, problem: error.message };
      throw error;
    }
  }

  /** Serves one admitted request (`body`: the parsed JSON of a POST, else undefined). */
  async handle(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    const header = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId !== undefined) {
      const known = this.sessions.get(sessionId);
      if (!known)
        return answer(response, 404, -32001, 'Session not found: it ended or was never opened; initialize again.');
      known.lastUsed = this.now();
      await known.transport.handleRequest(request, response, body);
      return;
    }
    if (request.method !== 'POST' || !isInitializeRequest(body))
      return answer(
        response,
        400,
        -32000,
        'Bad Request: no Mcp-Session-Id; a session starts with an initialize request.',
      );
    if (this.closed) return answer(response, 503, -32000, 'The server is stopping.');
    if (!(await this.makeRoom()))
      return answer(
        response,
        503,
        -32000,
        `All ${MAX_HTTP_SESSIONS} MCP sessions are in use (a session gives way once idle for ${MIN_IDLE_BEFORE_EVICTION_MS / 1000} s with no call running): try again later, or close a client you no longer use.`,
      );
    await this.open(request, response, body);
  }

  /** Closes every session (their running calls stop and are journaled). */
  async close(): Promise<void> {
    this.closed = true;
    this.logEvictions();
    await Promise.allSettled([...this.sessions.values()].map((entry) => entry.session.close()));
    this.sessions.clear();
  }

  /** How many sessions are open now (bounded by MAX_HTTP_SESSIONS). */
  get openSessions(): number {
    return this.sessions.size + this.opening;
  }

  private async open(request: IncomingMessage, response: ServerResponse, body: unknown): Promise<void> {
    const session = new McpSession(this.home, { version: this.options.version, log: this.options.log });
    const entry: HttpSession = {
      session,
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          this.sessions.set(id, entry);
        },
      }),
      lastUsed: this.now(),
      credential: bearerTokenOf(request),
    };
    entry.transport.onclose = () => {
      const id = entry.transport.sessionId;
      if (id !== undefined && this.sessions.get(id) === entry) this.sessions.delete(id);
      void session.close();
    };
    this.opening += 1;
    try {
      await session.server.connect(entry.transport);
      await entry.transport.handleRequest(request, response, body);
    } finally {
      this.opening -= 1;
    }
    // An initialize the transport refused leaves no session: let it go.
    if (entry.transport.sessionId === undefined) await session.close();
  }

  /**
   * True when a new session fits, after closing the session idle the longest if needed — one with no
   * call running and no request for MIN_IDLE_BEFORE_EVICTION_MS.
   */
  private async makeRoom(): Promise<boolean> {
    if (this.openSessions < MAX_HTTP_SESSIONS) return true;
    const now = this.now();
    let idlest: [string, HttpSession] | undefined;
    for (const pair of this.sessions) {
      const [, entry] = pair;
      if (entry.session.callsRunning > 0 || now - entry.lastUsed < MIN_IDLE_BEFORE_EVICTION_MS) continue;
      if (idlest === undefined || entry.lastUsed < idlest[1].lastUsed) idlest = pair;
    }
    if (idlest === undefined) return false;
    this.sessions.delete(idlest[0]);
    this.evictedUnlogged += 1;
    if (this.evictionLoggedAt === undefined || now - this.evictionLoggedAt >= EVICTION_LOG_INTERVAL_MS) {
      this.evictionLoggedAt = now;
      this.logEvictions();
    }
    await idlest[1].session.close();
    return this.openSessions < MAX_HTTP_SESSIONS;
  }

  private logEvictions(): void {
    if (this.evictedUnlogged === 0) return;
    const count = this.evictedUnlogged;
    this.evictedUnlogged = 0;
    this.options.log(
      `closed ${count} idle MCP session${count === 1 ? '' : 's'} to make room for new ones (at most ${MAX_HTTP_SESSIONS} open; logged at most once a minute)`,
    );
  }

  /** Ends the sessions opened with a credential other than `current` (it was rotated, or its file is gone or unusable). */
  private closeSessionsNotOpenedWith(current: string | undefined): void {
    const stale = [...this.sessions].filter(([, entry]) => current === undefined || entry.credential !== current);
    if (stale.length === 0) return;
    for (const [id] of stale) this.sessions.delete(id);
    this.options.log(
      `the MCP credential changed: closed the ${stale.length} MCP session${stale.length === 1 ? '' : 's'} opened with the old one`,
    );
    // Closing journals their running calls; nothing waits for it, and allSettled never rejects.
    void Promise.allSettled(stale.map(([, entry]) => entry.session.close()));
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}

/** A JSON-RPC error as a plain HTTP answer (no session to carry it). */
function answer(response: ServerResponse, status: number, code: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
