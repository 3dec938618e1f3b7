import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  CancelledNotificationSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListToolsResultSchema,
  McpError,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type ElicitRequest,
  type ElicitResult,
  type Progress,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ToolProgress } from '../../../core/tools/tool-definition.ts';
import { Emitter } from '../../../core/events/emitter.ts';
import { ToolError } from '../../../core/tools/tool-error.ts';
import { redactSecrets } from '../../../core/models/http/redact-secrets.ts';
import type { McpServerConfig } from './mcp-config.ts';
import { expandVariables } from './expand-variables.ts';
import { declareMcpTools, MAX_TOOLS_PER_SERVER, type McpToolDeclaration } from './declare-mcp-tools.ts';
import { openTransport, type OpenedTransport } from './mcp-transport.ts';
import { SentWatch } from './sent-watch.ts';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { McpOAuth } from './oauth/mcp-oauth.ts';
import { OAuthFileError } from './oauth/oauth-file.ts';
import { StderrTail } from './stderr-tail.ts';
import { RestartBackoff } from './restart-backoff.ts';
import { saysUnknownTool } from './map-tool-result.ts';
import { cutServerText } from './server-text.ts';
import {
  declineElicitation,
  MAX_ELICITATION_FIELDS,
  withElicitationDefaults,
  type McpElicitationFrontEnd,
} from './mcp-elicitation.ts';
import { deadlineSignal } from '../../../core/text/deadline-signal.ts';
import { elicitationDefaultsOf } from '../../contract/elicitation-content.ts';

/** How long starting a server (spawn or first request, `initialize`, the tool list) may take. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** The SDK's own deadline for one call: the longest tool timeout the settings allow; the call's signal ends it sooner. */
const CALL_DEADLINE_MS = 3_600_000;
/** Pages of `tools/list` read at most: a server that hands out cursors for ever is stopped here. */
export const MAX_LIST_PAGES = 16;
/**
 * Time between two listings caused by `tools/list_changed`: a notice costs a server a few bytes and
 * a listing costs the host up to a whole message, so a flood of notices is one listing a second.
 */
export const RELIST_INTERVAL_MS = 1_000;

/** Where a server stands: starting, usable, down (with the reason), or turned off. */
export type McpStatus = 'connecting' | 'ready' | 'failed' | 'sign-in' | 'stopped';

interface Attempt {
  generation: number;
  client: Client;
  opened: OpenedTransport;
  watch: SentWatch;
  /** Still in `connect` (a loss then is that attempt's failure, reported once by it). */
  connecting: boolean;
  lostWhy?: string;
  /** The OAuth sign-ins completed when it started: one completed since is used at once. */
  signIns: number;
}

/**
 * One configured MCP server: starts it (stdio or Streamable HTTP, through the SDK), lists its tools
 * within the budgets, calls them with the call's signal (an abort or timeout reaches the server as
 * MCP cancellation), and restarts it with backoff when it fails. A server that goes away ends every
 * pending call at once with `device_offline`; while it is down, its last tools are kept (`tools`)
 * and calls fail at once. It owns its child process: stopping, or a failed start, kills it.
 */
export class McpConnection {
  status: McpStatus = 'stopped';
  /** Why it is down (secrets redacted), when it is. */
  reason: string | undefined;
  /** The tools last listed (or stored from an earlier run), kept while the server is down. */
  tools: McpToolDeclaration[];
  /** What the last listing left out or cut. */
  warnings: string[] = [];
  /** Status or tools changed. */
  readonly changes = new Emitter<McpConnection>({ name: 'MCP connection' });
  /** A call's request has left the host (tests wait on it to break a server mid-call). */
  readonly sent = new Emitter<{ tool: string }>({ name: 'MCP call sent' });
  /** The server wrote to its stderr (the tail has changed). */
  readonly stderr = new Emitter<void>({ name: 'MCP stderr' });

  private attempt: Attempt | undefined;
  private generation = 0;
  private secrets: string[] = [];
  private readonly tail = new StderrTail();
  private readonly pending = new Set<(error: ToolError) => void>();
  /** The timeouts of the calls in flight, held while a question of this server waits for the person. */
  private readonly holdable = new Set<() => () => void>();
  private readonly backoff: RestartBackoff;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private settledWaiters: (() => void)[] = [];
  private listing: Promise<void> | undefined;
  private listAgain = false;
  /** Attempts being closed after a failure; `stop` waits for them, so nothing it started outlives it. */
  private readonly closing = new Set<Promise<void>>();

  constructor(
    private readonly options: {
      server: McpServerConfig;
      environment: Readonly<Record<string, string | undefined>>;
      /** The largest message either transport accepts from the server. */
      maxMessageBytes: number;
      version: string;
      /** Tools known from an earlier run, offered until the server lists its own. */
      lastKnown?: McpToolDeclaration[];
      /** Each listing, to record (the store pins trust to declarations). */
      onListed?: (tools: McpToolDeclaration[]) => void;
      log: (line: string) => void;
      backoff?: RestartBackoff;
      connectTimeoutMs?: number;
      /** The person's front end for a server's questions during a call; without one they are declined. */
      elicitation?: McpElicitationFrontEnd;
      /** OAuth 2.1 sign-in for a Streamable HTTP server that asks for it (status `sign-in` until the person signs in). */
      oauth?: McpOAuth;
    },
  ) {
    this.tools = options.lastKnown ?? [];
    this.backoff = options.backoff ?? new RestartBackoff();
    // Signed in (the loopback redirect, or the terminal's login seen at the next start): use the server again.
    options.oauth?.onSignedIn(() => {
      if (this.status === 'sign-in') void this.connect();
    });
  }

  get name(): string {
    return this.options.server.pluginName;
  }

  /** The end of the server's stderr, secrets redacted. */
  stderrTail(): string {
    return this.redact(this.tail.read());
  }

  /** Where its person signs in, while it needs it (status `sign-in`). */
  signIn(): { url: string; again: boolean } | undefined {
    const url = this.options.oauth?.authorizationUrl;
    return this.status === 'sign-in' && url !== undefined ? { url, again: this.options.oauth!.again } : undefined;
  }

  /** The pid of its child process (stdio), while it has one. */
  pid(): number | undefined {
    return this.attempt?.opened.pid();
  }

  /** Starts the server, unless it runs or is starting. */
  start(): void {
    if (this.status !== 'stopped') return;
    void this.connect();
  }

  /** Resolves once the first start since `start()` has ended, ready or failed (or the server was turned off). */
  whenSettled(): Promise<void> {
    if (this.status !== 'connecting') return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  /** Stops the server for good (until `start`): pending calls end `device_offline`, the child is killed. */
  async stop(): Promise<void> {
    // Stopping what is stopped changes nothing (and tells no one: a listener may stop it again).
    if (this.status !== 'stopped') {
      this.generation += 1;
      if (this.restartTimer !== undefined) clearTimeout(this.restartTimer);
      this.restartTimer = undefined;
      this.endPending(`${this.name} was turned off while the call ran`);
      const attempt = this.attempt;
      this.attempt = undefined;
      this.setStatus('stopped', undefined);
      if (attempt) this.close(attempt);
    }
    await this.options.oauth?.stopListening();
    await Promise.all([...this.closing]);
  }

  /**
   * Calls one tool. Waits while the server is starting; fails at once with `device_offline` while
   * it is down, or when it goes away during the call. `onSent` runs when the request has left.
   */
  async call(options: {
    tool: string;
    args: Record<string, unknown>;
    signal: AbortSignal;
    onSent: () => void;
    /** The server's progress notifications for this call (asked for only with it), secrets redacted. */
    onProgress?: (update: ToolProgress) => void;
    /** Stops the call's timeout while the server's question waits for the person (see `elicit`). */
    holdTimeout?: () => () => void;
  }): Promise<CallToolResult> {
    if (this.status === 'connecting') await this.whenSettledOr(options.signal);
    const attempt = this.attempt;
    if (this.status !== 'ready' || attempt === undefined || attempt.connecting)
      throw new ToolError({
        reason: 'device_offline',
        detail: `the MCP server ${this.name} is not connected${this.reason ? ` (${this.reason})` : ''}: nothing was sent to it`,
        hint: 'The MCP server is down; tell the person, and try again later.',
      });
    // Arguments of this request's own: the watch knows the request by them, whatever the SDK copies.
    const params = { name: options.tool, arguments: { ...options.args } };
    const { onProgress } = options;
    attempt.watch.expect(params.arguments, () => {
      options.onSent();
      this.sent.emit({ tool: options.tool });
    });
    const { holdTimeout } = options;
    if (holdTimeout) this.holdable.add(holdTimeout);
    return new Promise<CallToolResult>((resolve, reject) => {
      this.pending.add(reject);
      attempt.client
        .request({ method: 'tools/call', params }, CallToolResultSchema, {
          signal: options.signal,
          timeout: CALL_DEADLINE_MS,
          ...(onProgress
            ? {
                onprogress: ({ progress, total, message }: Progress) =>
                  onProgress({
                    progress,
                    ...(total !== undefined ? { total } : {}),
                    ...(message !== undefined ? { message: this.redact(message) } : {}),
                  }),
              }
            : {}),
        })
        .then(resolve, (error: unknown) => {
          // This call first: the server refused it before acting, which ending the others would not say.
          reject(this.callError(error, options.tool));
          if (error instanceof UnauthorizedError) this.needsSignIn(attempt);
        })
        .finally(() => {
          this.pending.delete(reject);
          if (holdTimeout) this.holdable.delete(holdTimeout);
        });
    });
  }

  private async connect(): Promise<void> {
    const generation = ++this.generation;
    this.tail.clear();
    // A server started as a command may be fetched first (npx, uvx): say so while it starts.
    this.setStatus(
      'connecting',
      this.options.server.transport.kind === 'stdio' ? 'starting (a first start may download the server)' : undefined,
    );
    const expanded = expandVariables(this.options.server.transport, this.options.environment);
    if (!expanded.ok) {
      // The environment does not change while the app runs: trying again would fail the same way.
      this.setStatus('failed', expanded.problem);
      return;
    }
    this.secrets = expanded.secrets;
    const watch = new SentWatch();
    const opened = openTransport({
      transport: expanded.transport,
      maxMessageBytes: this.options.maxMessageBytes,
      watch,
      stderr: (chunk) => {
        this.tail.append(chunk);
        this.stderr.emit();
      },
      lost: (why) => this.lost(generation, why),
      ...(this.options.oauth && expanded.transport.kind === 'http' ? { oauth: this.options.oauth } : {}),
    });
    // A server may ask its person a question during a call (a form): answered by the person, never the model.
    const client = new Client(
      { name: 'home-agent', version: this.options.version },
      { capabilities: { elicitation: { form: {} } } },
    );
    const attempt: Attempt = {
      generation,
      client,
      opened,
      watch,
      connecting: true,
      signIns: this.options.oauth?.signIns ?? 0,
    };
    this.attempt = attempt;
    client.onclose = () => this.lost(generation, 'the server closed the connection');
    client.onerror = (error) => {
      // The SDK's stdio reader drops the connection past its bound (and then closes): say why.
      if (/ReadBuffer exceeded maximum size/.test(error.message))
        this.lost(generation, `it sent a message over ${this.options.maxMessageBytes} bytes`);
      // Other errors are single unreadable messages, not fatal; a lost connection is reported by onclose or `lost`.
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.relist(generation));
    // The SDK drops a cancellation of request id 0 (`if (!requestId)`), a server's first request: the
    // questions are withdrawn here, whatever their id.
    const questions = new Map<string | number, AbortController>();
    client.setNotificationHandler(CancelledNotificationSchema, (notification) => {
      const { requestId } = notification.params;
      if (requestId !== undefined) questions.get(requestId)?.abort(notification.params.reason);
    });
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      const withdrawn = new AbortController();
      questions.set(extra.requestId, withdrawn);
      try {
        return await this.elicit(request.params, AbortSignal.any([extra.signal, withdrawn.signal]));
      } finally {
        questions.delete(extra.requestId);
      }
    });
    const timeoutMs = this.options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
    const signal = deadlineSignal(timeoutMs);
    try {
      await client.connect(opened.transport, { signal, timeout: timeoutMs });
      if (generation !== this.generation) return;
      await this.list(attempt, signal);
      if (generation !== this.generation) return;
      attempt.connecting = false;
      this.backoff.ready();
      this.options.oauth?.accepted();
      this.setStatus('ready', undefined);
    } catch (error) {
      if (generation !== this.generation) return;
      attempt.connecting = false;
      if (error instanceof UnauthorizedError && this.options.oauth !== undefined) this.needsSignIn(attempt);
      // A sign-in file that cannot be used closes the transport too: what is wrong with it comes first.
      else if (error instanceof OAuthFileError) this.fail(generation, error.message);
      else this.fail(generation, attempt.lostWhy ?? this.startError(error, timeoutMs));
    }
  }

  /** Reads the tool list (every page, within the budgets) and keeps it. */
  private async list(attempt: Attempt, signal: AbortSignal): Promise<void> {
    const listed: Tool[] = [];
    if (attempt.client.getServerCapabilities()?.tools !== undefined) {
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await attempt.client.request(
          { method: 'tools/list', params: cursor !== undefined ? { cursor } : {} },
          ListToolsResultSchema,
          { signal, timeout: CONNECT_TIMEOUT_MS },
        );
        listed.push(...page.tools);
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor !== undefined && listed.length <= MAX_TOOLS_PER_SERVER && pages < MAX_LIST_PAGES);
    }
    if (attempt.generation !== this.generation) return;
    const declared = declareMcpTools({
      server: this.options.server.name,
      plugin: this.name,
      tools: listed,
    });
    // A server may say its own token in a declaration: what is offered, stored and sent on holds `***`.
    const tools: McpToolDeclaration[] = [];
    const warnings = [...declared.warnings];
    for (const tool of declared.tools) {
      const redacted = this.redactDeclaration(tool);
      if (redacted) tools.push(redacted);
      else
        warnings.push(
          `${this.name}: the tool ${JSON.stringify(this.redact(tool.original))} is left out: a name a call must say (its own, or one of its arguments) holds a secret of its config`,
        );
    }
    this.tools = tools;
    this.warnings = warnings.map((warning) => this.redact(warning));
    this.options.onListed?.(tools);
  }

  /** The server said its tools changed: list again; a flood of notices costs one listing in flight and one more. */
  private relist(generation: number): void {
    if (generation !== this.generation || this.status !== 'ready') return;
    if (this.listing) {
      this.listAgain = true;
      return;
    }
    this.listing = (async () => {
      try {
        for (;;) {
          this.listAgain = false;
          const attempt = this.attempt;
          if (attempt === undefined || attempt.generation !== generation) return;
          await this.list(attempt, deadlineSignal(CONNECT_TIMEOUT_MS));
          this.changes.emit(this);
          if (!this.listAgain) return;
          await new Promise((resolve) => setTimeout(resolve, RELIST_INTERVAL_MS));
          if (generation !== this.generation) return;
        }
      } catch (error) {
        this.options.log(`${this.name}: could not list its tools again: ${this.words(error)}`);
      } finally {
        this.listing = undefined;
      }
    })();
  }

  /**
   * A server's question during a call (form mode; URL mode is not declared, so the SDK refuses it):
   * put to the person's front end with the schema's defaults as the form's first values, and an
   * accepted answer sent with the defaults of the fields left out (SEP-1034). Declined when there
   * is no front end, the form is too large, or the front end fails.
   */
  private async elicit(params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult> {
    if (params.mode === 'url' || !('requestedSchema' in params)) return { action: 'decline' };
    const { requestedSchema } = params;
    if (Object.keys(requestedSchema.properties).length > MAX_ELICITATION_FIELDS) return { action: 'decline' };
    const frontEnd = this.options.elicitation ?? declineElicitation;
    // The question does not say which call asks it (stdio carries no related request): every call of
    // this server in flight waits for the person without its timeout running.
    const released = [...this.holdable].map((hold) => hold());
    try {
      const answer = await frontEnd({
        plugin: this.name,
        message: params.message,
        requestedSchema,
        defaults: elicitationDefaultsOf(requestedSchema),
        signal,
      });
      if (answer.action !== 'accept') return { action: answer.action };
      return { action: 'accept', content: withElicitationDefaults(requestedSchema, answer.content) };
    } catch (error) {
      this.options.log(`${this.name}: its question to the person was declined: ${this.words(error)}`);
      return { action: 'decline' };
    } finally {
      for (const release of released) release();
    }
  }

  /** The connection went away (the child exited, the socket broke, a message was too big). */
  private lost(generation: number, why: string): void {
    const attempt = this.attempt;
    if (generation !== this.generation || attempt === undefined) return;
    if (attempt.connecting) {
      attempt.lostWhy ??= why;
      return;
    }
    if (this.status === 'ready') this.fail(generation, why);
  }

  /**
   * The server wants its person to sign in (or to grant more scope): no restart is planned; the
   * sign-in starts it again. Pending calls end at once, refused by the server before they acted.
   */
  private needsSignIn(refused: Attempt): void {
    const oauth = this.options.oauth;
    if (refused.generation !== this.generation || oauth === undefined) return;
    const attempt = this.attempt;
    this.attempt = undefined;
    this.endPending(`${this.name} needs you to sign in before it answers`);
    if (attempt) this.close(attempt);
    // Signed in while the refusal came back (a browser can be that quick): use the server again now.
    if (oauth.signIns > refused.signIns) {
      void this.connect();
      return;
    }
    if (oauth.authorizationUrl === undefined) {
      this.fail(refused.generation, 'it refused the sign-in it asked for');
      return;
    }
    this.setStatus(
      'sign-in',
      oauth.again
        ? `its sign-in ran out and could not be renewed: sign in again (${oauth.signInCommand})`
        : `sign-in needed: open its Sign in link, or run ${oauth.signInCommand}`,
    );
  }

  /** Down: pending calls end at once, the child is killed, and a restart is planned with backoff. */
  private fail(generation: number, why: string): void {
    const attempt = this.attempt;
    this.attempt = undefined;
    this.endPending(`${this.name} went away while the call ran: ${why}`);
    if (attempt) this.close(attempt);
    const delay = this.backoff.failed();
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (generation === this.generation) void this.connect();
    }, delay);
    this.setStatus('failed', `${why}; starting it again in ${Math.round(delay / 1000)} s`);
  }

  private close(attempt: Attempt): void {
    const closed = closeAttempt(attempt).finally(() => this.closing.delete(closed));
    this.closing.add(closed);
  }

  private endPending(why: string): void {
    const error = new ToolError({
      reason: 'device_offline',
      detail: this.redact(why),
      hint: 'The MCP server is gone; it may have acted on the call. Tell the person before trying again.',
    });
    for (const reject of [...this.pending]) reject(error);
    this.pending.clear();
  }

  private setStatus(status: McpStatus, reason: string | undefined): void {
    this.status = status;
    this.reason = reason === undefined ? undefined : this.redact(reason);
    if (status !== 'connecting') for (const resolve of this.settledWaiters.splice(0)) resolve();
    this.changes.emit(this);
  }

  private whenSettledOr(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const done = (): void => {
        signal.removeEventListener('abort', done);
        resolve();
      };
      signal.addEventListener('abort', done, { once: true });
      void this.whenSettled().then(done);
    });
  }

  private startError(error: unknown, timeoutMs: number): string {
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
      return `it did not answer within ${timeoutMs} ms`;
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)
      return 'it closed the connection before it was ready (its stderr may say why)';
    if ((error as Error)?.name === 'TimeoutError') return `it did not answer within ${timeoutMs} ms`;
    return this.words(error);
  }

  private callError(error: unknown, tool: string): ToolError {
    if (ToolError.isInstance(error)) return error;
    if (error instanceof UnauthorizedError)
      return new ToolError({
        reason: 'unauthorized',
        detail: `${this.name} refused the call before acting on it: it needs the person to sign in${this.options.oauth?.again === false ? ' with more permission' : ' again'}`,
        hint: 'Tell the person to sign in to the server (the Plugins tab), then try again.',
      });
    if (error instanceof McpError) {
      if (
        (error.code === ErrorCode.InvalidParams || error.code === ErrorCode.MethodNotFound) &&
        saysUnknownTool(error.message)
      )
        return new ToolError({
          reason: 'not_found',
          detail: `${this.name} has no tool '${tool}' (${this.words(error)})`,
          hint: 'Call system_list_tools to see the tools that exist; do not retry this name.',
        });
      if (error.code === ErrorCode.ConnectionClosed)
        return new ToolError({ reason: 'device_offline', detail: `${this.name} went away while the call ran` });
    }
    return new ToolError({ reason: 'failed', detail: `${this.name}: ${this.words(error)}` });
  }

  /**
   * An error's message as a message may hold it: secrets replaced, then cut to 2,000 characters (it
   * may be a server's own words, as long as a whole message; cut after, so no part of a secret is left).
   */
  private words(error: unknown): string {
    return cutServerText(this.redact(describeError(error)));
  }

  /** `text` with every secret of this server's config replaced by `***`. */
  redact(text: string): string {
    return redactSecrets(text, this.secrets);
  }

  /**
   * A server's answer with its config's secrets replaced (a server may print its own token back):
   * what is journaled and shown never holds one. The answer itself when there is nothing to replace.
   */
  redactResult(result: CallToolResult): CallToolResult {
    return this.redactJson(result);
  }

  /**
   * A declaration with this server's secrets replaced by `***` in its description and schema
   * (descriptions, choices, defaults); undefined when one is in a name a call must say (the tool's
   * own, or an argument's), which cannot be replaced without breaking the call.
   */
  private redactDeclaration(tool: McpToolDeclaration): McpToolDeclaration | undefined {
    if (this.secrets.length === 0) return tool;
    if (this.redact(tool.original) !== tool.original) return undefined;
    const parameters = this.redactJson(tool.parameters);
    if (shapeOf(parameters) !== shapeOf(tool.parameters)) return undefined;
    const description = this.redact(tool.description);
    return parameters === tool.parameters && description === tool.description
      ? tool
      : { ...tool, description, parameters };
  }

  /** A JSON value with every secret of this server's config replaced by `***` in its text; itself when there is none. */
  private redactJson<T>(value: T): T {
    if (this.secrets.length === 0) return value;
    let text: string;
    try {
      text = JSON.stringify(value);
    } catch {
      // Too deep to write out: the result mapping refuses it with the reason, and keeps none of it.
      return value;
    }
    const forms = this.secrets.flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]);
    const redacted = redactSecrets(text, forms);
    // Our own JSON text, with strings of it replaced by `***`: it parses back to the same shape.
    return redacted === text ? value : (JSON.parse(redacted) as T);
  }
}

/** How long a server is given to exit on its own once its input is closed, before it is killed. */
const EXIT_GRACE_MS = 500;
/** How long to wait for a killed child to be gone. */
const KILLED_EXIT_WAIT_MS = 2_000;

/**
 * Closes the SDK's side, then kills the child if it is still there — after a failed start the SDK
 * forgets the child's pid and would leave it running — and waits (bounded) until it has exited.
 */
async function closeAttempt(attempt: Attempt): Promise<void> {
  await within(
    EXIT_GRACE_MS,
    // A close that fails leaves only the child, which is killed below.
    attempt.client.close().catch(() => undefined),
  );
  attempt.opened.kill();
  await within(KILLED_EXIT_WAIT_MS, attempt.opened.exited());
}

/** Waits for `work`, but no longer than `ms`. */
async function within(ms: number, work: Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** A JSON value's keys, every string value blanked: two values with one shape have one text. */
function shapeOf(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'string' ? '' : item));
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
