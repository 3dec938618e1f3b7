import { createHash, randomUUID } from 'node:crypto';
// The low-level Server: the home's tools are JSON Schema declarations read at every listing, which
// McpServer's zod-typed registry does not take.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { safeText } from '../../../core/text/safe-text.ts';
import type { ToolApi } from '../../../core/tools/tool-api.ts';
import type { HostNotice } from '../../contract/api-contract.ts';
import { callResultOf } from './call-result.ts';
import { clientNameOf } from './client-name.ts';
import { runCallTurn, type CallTurnEvents, type SessionConversation } from './run-call-turn.ts';
import { servedTool } from './served-tool.ts';
import { MCP_CALLER, mcpApprovalWait, SessionQuestions } from './mcp-approval-wait.ts';
import type { ClientTurns } from '../../approvals/client-turns.ts';

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
  events: CallTurnEvents;
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
 * another process on the data folder) that changes the list is announced (`notifications/tools/list_changed`). `close` stops its running calls and waits
 * until they are journaled.
 */
export class McpSession {
  readonly server: Server;
  private readonly stopped = new AbortController();
  private readonly running = new Set<Promise<unknown>>();
  private readonly questions = new SessionQuestions(MAX_QUESTIONS_OPEN);
  private conversation: SessionConversation | undefined;
  private listed: string | undefined;
  private readonly stopNotices: () => void;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly home: ServedHome,
    options: { version: string; log: (line: string) => void },
  ) {
    // A call made as an MCP client's waits as one in any turn, bounded by its session only in its own.
    home.clientTurns.caller(MCP_CALLER, (settings) => mcpApprovalWait(settings));
    this.server = new Server(
      { name: 'home-agent', title: 'Home Agent', version: options.version },
      { capabilities: { tools: { listChanged: true } }, instructions: INSTRUCTIONS },
    );
    this.server.onerror = (error) => options.log(`MCP session: ${error.message}`);
    this.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.tools() }));
    this.server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
      this.call(request.params.name, request.params.arguments ?? {}, extra.signal),
    );
    this.stopNotices = home.notices.subscribe((notice) => {
      if (notice.type === 'devices/changed' || notice.type === 'plugins/changed') this.announceListChange();
    });
  }

  /** Calls running now (a session with none may be let go first when sessions run short). */
  get callsRunning(): number {
    return this.running.size;
  }

  /** Stops the running calls (their turns end `aborted`), waits until they are journaled, closes the server. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.stopNotices();
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

  private async call(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    if (this.stopped.signal.aborted) return refusal('This MCP session has ended: connect again.');
    if (name.length > MAX_TOOL_NAME_LENGTH)
      return refusal(
        `There is no tool named '${safeText([...name].slice(0, 100).join(''))}…': names are at most ${MAX_TOOL_NAME_LENGTH} characters. List the tools to see the names that exist.`,
      );
    if (this.running.size >= MAX_CALLS_IN_FLIGHT)
      return refusal(
        `${name} did not run: this client already has ${MAX_CALLS_IN_FLIGHT} calls running, the most one session may. Wait for one to finish, then call it again.`,
      );
    const turnId = randomUUID();
    const endTurn = this.home.clientTurns.begin(turnId, (settings) => mcpApprovalWait(settings, this.questions));
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
      return callResultOf(name, await call);
    } finally {
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
