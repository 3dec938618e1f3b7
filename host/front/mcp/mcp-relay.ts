import { z } from 'zod';

/** Where a relayed MCP session is served now: the running host's `mcp` door, or a host in this process. */
export interface McpBackend {
  /** Sends one client line (a JSON-RPC message, without its newline). */
  send(line: string): void;
  /** Each line the backend answers with. */
  onLine(listener: (line: string) => void): void;
  /** Resolves when the backend ends (the host went away, or it was closed). */
  readonly ended: Promise<void>;
  close(): Promise<void>;
}

const messageSchema = z.object({
  id: z.union([z.string(), z.number()]).optional(),
  method: z.string().optional(),
  params: z.record(z.string(), z.unknown()).optional(),
});

/** The lists a session announces changes of (McpSession's capabilities): a client is told to list them again after a handover. */
const LISTS_TO_REFRESH = ['tools', 'prompts', 'resources'] as const;

/** The prefix of ids the relay gives the lines it replays; their answers are the relay's, never the client's. */
const REPLAY_ID = 'home-agent-relay-';

/**
 * Keeps one MCP client's session whole while the process that serves it changes: it passes the
 * client's lines to the backend and the backend's to the client, remembers what set the session up
 * (initialize, initialized, the log level, resource subscriptions) to replay it to a new backend, and
 * ends honestly the requests a lost backend never answered: a tool call that left may have acted, so
 * its result says so and asks not to retry blindly.
 */
export class McpRelay {
  private backend: McpBackend | undefined;
  private readonly pending = new Map<string, string>();
  private initialize: Record<string, unknown> | undefined;
  private initialized = false;
  private level: Record<string, unknown> | undefined;
  private readonly subscriptions = new Set<string>();
  private replays = 0;
  /** Whether a backend served the session already: a later one is set up by replaying. */
  private served = false;
  /** What the client said while no backend was there (between two hosts, or before the first). */
  private readonly waiting: string[] = [];

  constructor(private readonly toClient: (line: string) => void) {}

  /** A line from the client: remembered when it sets the session up, then sent on. */
  fromClient(line: string): void {
    const message = parse(line);
    if (message?.id !== undefined && message.method !== undefined) this.pending.set(key(message.id), message.method);
    if (message?.method === 'initialize' && message.params) this.initialize = message.params;
    if (message?.method === 'notifications/initialized') this.initialized = true;
    if (message?.method === 'logging/setLevel' && message.params) this.level = message.params;
    const uri = typeof message?.params?.uri === 'string' ? message.params.uri : undefined;
    if (message?.method === 'resources/subscribe' && uri) this.subscriptions.add(uri);
    if (message?.method === 'resources/unsubscribe' && uri) this.subscriptions.delete(uri);
    if (this.backend) this.backend.send(line);
    else this.waiting.push(line);
  }

  /**
   * Serves the session from `backend` until it ends. A backend after the first is set up first with
   * what the client already said (its answers dropped) and the client is told the tools, prompts and
   * resources may differ.
   */
  async attach(backend: McpBackend): Promise<void> {
    const replayed = this.served && this.initialize !== undefined;
    this.served = true;
    this.backend = backend;
    backend.onLine((line) => this.fromBackend(line));
    if (replayed) {
      this.replay(backend, 'initialize', this.initialize);
      if (this.initialized) backend.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      if (this.level) this.replay(backend, 'logging/setLevel', this.level);
      for (const uri of this.subscriptions) this.replay(backend, 'resources/subscribe', { uri });
      // The new backend's session has not seen the client list anything: the client lists again, so
      // it hears of the next change too.
      for (const list of LISTS_TO_REFRESH)
        this.toClient(JSON.stringify({ jsonrpc: '2.0', method: `notifications/${list}/list_changed` }));
    }
    for (const line of this.waiting.splice(0)) backend.send(line);
    await backend.ended;
    if (this.backend === backend) this.backend = undefined;
  }

  /**
   * Ends every request the lost backend left unanswered: a tool call with a result that says it may
   * have acted (`why`), anything else with an error to ask again.
   */
  endUnanswered(why: string): void {
    for (const [id, method] of this.pending) {
      const parsedId = JSON.parse(id) as string | number;
      this.toClient(
        JSON.stringify(
          method === 'tools/call'
            ? {
                jsonrpc: '2.0',
                id: parsedId,
                result: {
                  content: [
                    {
                      type: 'text',
                      text: `${why} while this call ran: it may or may not have acted. Check the device's state before calling again.`,
                    },
                  ],
                  isError: true,
                },
              }
            : { jsonrpc: '2.0', id: parsedId, error: { code: -32603, message: `${why}: ask again` } },
        ),
      );
    }
    this.pending.clear();
  }

  private fromBackend(line: string): void {
    const message = parse(line);
    if (message?.id !== undefined && message.method === undefined) {
      if (typeof message.id === 'string' && message.id.startsWith(REPLAY_ID)) return;
      this.pending.delete(key(message.id));
    }
    this.toClient(line);
  }

  private replay(backend: McpBackend, method: string, params: Record<string, unknown> | undefined): void {
    this.replays += 1;
    backend.send(JSON.stringify({ jsonrpc: '2.0', id: `${REPLAY_ID}${this.replays}`, method, params }));
  }
}

function parse(line: string): z.infer<typeof messageSchema> | undefined {
  try {
    const parsed = messageSchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function key(id: string | number): string {
  return JSON.stringify(id);
}
