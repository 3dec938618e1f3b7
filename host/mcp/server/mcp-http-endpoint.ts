import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { McpSession, type ServedHome } from './mcp-session.ts';

/**
 * The most MCP sessions served at once over HTTP. Each keeps a little memory (its server, its
 * stream), so their number is bounded: a client past it takes the place of the session idle the
 * longest (no call running), or, when every one is running calls, is answered 503.
 */
export const MAX_HTTP_SESSIONS = 16;

interface HttpSession {
  session: McpSession;
  transport: StreamableHTTPServerTransport;
  lastUsed: number;
}

/**
 * `/mcp` of `serve --mcp`: the Streamable HTTP transport, one McpSession per client session
 * (`Mcp-Session-Id`). The web server admits a request first (Host, Origin, token, wrong-token
 * limit, body size) and hands it here with its body already read and parsed.
 */
export class McpHttpEndpoint {
  private readonly sessions = new Map<string, HttpSession>();
  /** Sessions made but not yet initialized: counted against the bound too. */
  private opening = 0;
  private closed = false;

  constructor(
    private readonly home: ServedHome,
    private readonly options: { version: string; log: (line: string) => void; now?: () => number },
  ) {}

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
        `All ${MAX_HTTP_SESSIONS} MCP sessions are running calls: try again when one has finished.`,
      );
    await this.open(request, response, body);
  }

  /** Closes every session (their running calls stop and are journaled). */
  async close(): Promise<void> {
    this.closed = true;
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

  /** True when a new session fits, after closing the longest-idle session with no call running if needed. */
  private async makeRoom(): Promise<boolean> {
    if (this.openSessions < MAX_HTTP_SESSIONS) return true;
    let idlest: [string, HttpSession] | undefined;
    for (const pair of this.sessions)
      if (pair[1].session.callsRunning === 0 && (idlest === undefined || pair[1].lastUsed < idlest[1].lastUsed))
        idlest = pair;
    if (idlest === undefined) return false;
    this.sessions.delete(idlest[0]);
    this.options.log(`closed the MCP session idle the longest to make room (at most ${MAX_HTTP_SESSIONS})`);
    await idlest[1].session.close();
    return this.openSessions < MAX_HTTP_SESSIONS;
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
