import { createHash, randomUUID } from 'node:crypto';
// The low-level Server: the home's tools are JSON Schema declarations read at every listing, which
// McpServer's zod-typed registry does not take.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  SetLevelRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import type { ToolCallRun } from '../../../core/tools/tool-call-run.ts';
import type { AuthorizationContext } from '../../../core/tools/tool-definition.ts';
import { safeText } from '../../../core/text/safe-text.ts';
import type { ToolApi } from '../../../core/tools/tool-api.ts';
import type { HostNotice } from '../../contract/api-contract.ts';
import { callResultOf } from './call-result.ts';
import { clientNameOf } from './client-name.ts';
import { runCallTurn, type CallTurnEvents, type SessionConversation } from './run-call-turn.ts';
import { servedTool } from './served-tool.ts';
import { MCP_CALLER, mcpApprovalWait, SessionQuestions } from './mcp-approval-wait.ts';
import type { ClientTurns } from '../../approvals/client-turns.ts';
import type { DeviceList } from './device-resources.ts';
import { watchDeviceChanges } from './device-changes.ts';
import { ServedResources } from './served-resources.ts';
import { servePrompts } from './served-prompts.ts';
import { watchSequenceChanges } from './sequence-changes.ts';
import { SessionLog } from './session-log.ts';
import { progressSender, reportCallProgress } from './call-progress.ts';

/**
 * The most calls one client session runs at once. Each running call may hold a question for the
 * person, so this also bounds the questions a client can keep open; one over it is answered at once
 * (isError), without running. Sixteen is more than any agent app sends in one reply.
 */
export const MAX_CALLS_IN_FLIGHT = 16;

/**
 * The most questions one client session keeps open for the person, its calls and the calls inside
 * sequences it runs together: as many as its calls in flight could ask by themselves, so one
 * `seq_run` of 32 calls that ask cannot put more cards before the person than 16 calls could.
 */
export const MAX_QUESTIONS_OPEN = MAX_CALLS_IN_FLIGHT;

/**
 * The longest tool name a call may give (the MCP spec's own bound for names). No tool of ours is
 * longer, so a longer one is answered at once, quoted cut, and nothing is journaled: a client
 * cannot grow the journal with a name of 256 KiB.
 */
export const MAX_TOOL_NAME_LENGTH = 128;

/** What of a running host a session serves: its tools (through the ToolAPI), journal, notices and its MCP turns. */
export interface ServedHome {
  toolApi: ToolApi;
  /** Where the session's turns are known as its own, so the approval gate bounds and times their questions. */
  clientTurns: ClientTurns;
  /** Where its turns are journaled, and where it hears of every front end's (device states, calls that act). */
  events: CallTurnEvents & { subscribe(listener: (event: AgentEvent) => void): () => void };
  /** The attached devices (the Devices tab's list): the resources and completions it may name. */
  handlers: DeviceList;
  store: { ensureConversation(conversationId: string, title: string): void };
  notices: { subscribe(listener: (notice: HostNotice) => void): () => void };
}

const INSTRUCTIONS = [
  'The tools of a home: its devices (one tool per kind and action, with a device_id argument), output',
  'channels and saved sequences. Only the devices and actions the person granted are offered. A call',
  'that needs the person’s approval waits for an answer in a Home Agent window and is refused if nobody',
  'answers; do not retry it unasked. Tools marked readOnlyHint only read.',
].join(' ');

/**
 * One MCP client session over any transport: an SDK Server listing the home's enabled tools (with
 * their annotations) and running each call as its own journaled turn of the session's conversation
 * (`MCP: CLIENT-NAME`, created at the first call); its calls and the calls inside sequences they run
 * keep at most MAX_QUESTIONS_OPEN questions open. A change of devices or plugins (made here or by
 * another process on the data folder) that changes the list is announced (`notifications/tools/list_changed`). It also
 * serves the devices it may read as resources, the saved sequences as prompts (with device
 * completions; a save or delete that changes them is announced, `notifications/prompts/list_changed`),
 * its own log lines at the level set, and the progress of a call that waits. `close` stops its
 * running calls and waits until they are journaled.
 */
export class McpSession {
  readonly server: Server;
  private readonly stopped = new AbortController();
  private readonly running = new Set<Promise<unknown>>();
  private readonly questions = new SessionQuestions(MAX_QUESTIONS_OPEN);
  private conversation: SessionConversation | undefined;
  private listed: string | undefined;
  private readonly stopNotices: () => void;
  private readonly stopDeviceChanges: () => void;
  private readonly stopSequenceChanges: () => void;
  private readonly log: SessionLog;
  private readonly resources: ServedResources;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly home: ServedHome,
    options: { version: string; log: (line: string) => void },
  ) {
    // A call made as an MCP client's waits as one in any turn, bounded by its session only in its own.
    home.clientTurns.caller(MCP_CALLER, (settings) => mcpApprovalWait(settings));
    this.server = new Server(
      { name: 'home-agent', title: 'Home Agent', version: options.version },
      {
        capabilities: {
          tools: { listChanged: true },
          logging: {},
          completions: {},
          resources: { subscribe: true, listChanged: true },
          prompts: { listChanged: true },
        },
        instructions: INSTRUCTIONS,
      },
    );
    this.log = new SessionLog((notification) => this.server.notification(notification));
    // This session's level, whatever its transport: one Server serves one session.
    this.server.setRequestHandler(SetLevelRequestSchema, (request) => {
      this.log.setLevel(request.params.level);
      return {};
    });
    this.server.onerror = (error) => options.log(`MCP session: ${error.message}`);
    this.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.tools() }));
    this.server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
      this.call(
        request.params.name,
        request.params.arguments ?? {},
        extra.signal,
        progressSender(request.params._meta?.progressToken, extra),
      ),
    );
    const context = (): AuthorizationContext => ({ conversationId: this.conversationOf().id, caller: MCP_CALLER });
    this.resources = new ServedResources(this.server, home, {
      context,
      readDevice: (reader, deviceId, signal) => this.runOne(reader, { device_id: deviceId }, signal),
    });
    const prompts = servePrompts(this.server, home, context);
    this.stopSequenceChanges = watchSequenceChanges(home, () => {
      if (this.stopped.signal.aborted) return;
      prompts
        .announceListChange()
        .catch((error: unknown) => options.log(`MCP session: could not list the prompts again: ${String(error)}`));
    });
    this.stopNotices = home.notices.subscribe((notice) => {
      if (notice.type === 'devices/changed' || notice.type === 'plugins/changed') this.announceListChange();
      if (notice.type === 'plugins/changed' || notice.type === 'approvals/changed')
        void this.resources.announceListChange();
    });
    this.stopDeviceChanges = watchDeviceChanges(
      { notices: home.notices, events: home.events, readOnly: (name) => home.toolApi.byName(name)?.readOnly === true },
      (deviceId) => {
        if (!this.stopped.signal.aborted) this.resources.changed(deviceId);
      },
    );
  }

  /** Calls running now (a session with none may be let go first when sessions run short). */
  get callsRunning(): number {
    return this.running.size;
  }

  /** Stops the running calls (their turns end `aborted`), waits until they are journaled, closes the server. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.stopNotices();
      this.stopDeviceChanges();
      this.stopSequenceChanges();
      this.stopped.abort(new Error('the MCP session ended'));
      await Promise.allSettled([...this.running]);
      await this.server.close();
    })();
    return this.closing;
  }

  private tools(): Tool[] {
    const tools = this.home.toolApi.list().map(servedTool);
    this.listed = JSON.stringify(tools);
    return tools;
  }

  private async call(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    progress?: (value: number, message: string) => void,
  ): Promise<CallToolResult> {
    const refused = this.refusalOf(name);
    if (refused !== undefined) {
      this.log.write('warning', refused);
      return refusal(refused);
    }
    const run = await this.runOne(name, args, signal, progress);
    return callResultOf(name, run);
  }

  /** Why a call of `name` is answered at once without running, if it is. */
  private refusalOf(name: string): string | undefined {
    if (this.stopped.signal.aborted) return 'This MCP session has ended: connect again.';
    if (name.length > MAX_TOOL_NAME_LENGTH)
      return `There is no tool named '${safeText([...name].slice(0, 100).join(''))}…': names are at most ${MAX_TOOL_NAME_LENGTH} characters. List the tools to see the names that exist.`;
    if (this.running.size >= MAX_CALLS_IN_FLIGHT)
      return `${name} did not run: this client already has ${MAX_CALLS_IN_FLIGHT} calls running, the most one session may. Wait for one to finish, then call it again.`;
    return undefined;
  }

  /** Runs one call as its own journaled turn of the session (a tool call, or a resource's read), logged to the session. */
  private async runOne(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    progress?: (value: number, message: string) => void,
  ): Promise<ToolCallRun> {
    const refused = this.refusalOf(name);
    if (refused !== undefined) {
      this.log.write('warning', refused);
      return {
        outcome: { ok: false, error: { reason: 'failed', detail: refused } },
        callOutcome: 'not_sent',
        media: [],
      };
    }
    // Names and outcomes only: an argument's value or a failure's detail may carry what is not the log's to send.
    const on = typeof args.device_id === 'string' ? ` on ${[...args.device_id].slice(0, 100).join('')}` : '';
    this.log.write('info', `${name}${on} started`);
    const turnId = randomUUID();
    const endTurn = this.home.clientTurns.begin(turnId, (settings) => mcpApprovalWait(settings, this.questions));
    const endProgress = progress
      ? reportCallProgress({ events: this.home.events, turnId, name: safeText(name), send: progress })
      : () => undefined;
    const call = runCallTurn({
      turnId,
      toolApi: this.home.toolApi,
      events: this.home.events,
      ensureConversation: (id, title) => this.home.store.ensureConversation(id, title),
      conversation: this.conversationOf(),
      name,
      args,
      signal: AbortSignal.any([signal, this.stopped.signal]),
    });
    this.running.add(call);
    try {
      const run = await call;
      this.log.write(
        run.outcome.ok ? 'info' : 'warning',
        `${name}${on} ended: ${run.outcome.ok ? 'ok' : run.outcome.error.reason} (outcome ${run.callOutcome})`,
      );
      return run;
    } finally {
      endProgress();
      endTurn();
      this.running.delete(call);
    }
  }

  /** The session's conversation, named after the client (known once it initialized). */
  private conversationOf(): SessionConversation {
    if (this.conversation) return this.conversation;
    const clientName = clientNameOf(this.server.getClientVersion());
    // One conversation per client name, whichever of its sessions calls: a client's history stays together.
    this.conversation = { id: mcpConversationId(clientName), title: `MCP: ${clientName}`, clientName };
    return this.conversation;
  }

  private announceListChange(): void {
    if (this.listed === undefined || this.stopped.signal.aborted) return;
    const now = JSON.stringify(this.home.toolApi.list().map(servedTool));
    if (now === this.listed) return;
    this.listed = now;
    // A client that went away meanwhile cannot be told; it lists again when it comes back.
    this.server.sendToolListChanged().catch(() => undefined);
  }
}

function refusal(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** The conversation of every session of one MCP client: named by a hash of its name (ids stay short and plain). */
export function mcpConversationId(clientName: string): string {
  return `mcp-${createHash('sha256').update(clientName).digest('hex').slice(0, 24)}`;
}
