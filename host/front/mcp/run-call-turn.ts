import { randomUUID } from 'node:crypto';
import type { AgentEvent, AgentEventInput } from '../../../core/events/agent-event.ts';
import type { ToolCallRun } from '../../../core/tools/tool-call-run.ts';
import { notJournaledRun } from '../../../core/batch/not-journaled.ts';
import { safeText } from '../../../core/text/safe-text.ts';
import type { ToolApi } from '../../../core/tools/tool-api.ts';
import { MCP_CALLER } from './mcp-approval-wait.ts';
import { roundMs } from '../../../core/events/round-ms.ts';

/** Where a served call's events go: journaled, then sent to every front end (the host's AgentEvents). */
export interface CallTurnEvents {
  emit(event: AgentEvent): boolean;
}

/** The conversation of one MCP client session, created in the store at its first call. */
export interface SessionConversation {
  id: string;
  title: string;
  /** Who called, as the turn's first line shows it (already made safe to show). */
  clientName: string;
}

/**
 * Runs one call from an MCP client as its own one-call turn, journaled like the agent's
 * (`turn/start`, `batch/start`, `tool/start`, the approval's events, `output/send`, `tool/end`,
 * `batch/end`, `turn/end`) so the window shows it with its outcome and timings and `home-agent
 * verify` holds. Calls of one client may run in parallel, so each has its own turn. The call goes
 * through the ToolAPI, never around it: the CanUse gate, approval, validation, timeout and outcome
 * are the same as for the agent's calls. Never throws for the call's own failures.
 */
export async function runCallTurn(options: {
  /** The turn's id (the session has it known as its own while the call runs). */
  turnId: string;
  toolApi: ToolApi;
  events: CallTurnEvents;
  ensureConversation: (conversationId: string, title: string) => void;
  conversation: SessionConversation;
  name: string;
  args: Record<string, unknown>;
  /** Aborted when the client cancels the request or the session ends. */
  signal: AbortSignal;
}): Promise<ToolCallRun> {
  const { conversation, name, args } = options;
  const { turnId } = options;
  const callId = randomUUID();
  const batchId = `mcp-${callId}`;
  // Whether the journal holds the event: a call whose start it could not hold never runs.
  const emit = (event: AgentEventInput, at = Date.now()): boolean =>
    options.events.emit({ ...event, at, conversationId: conversation.id, turnId } as AgentEvent);
  options.ensureConversation(conversation.id, conversation.title);
  emit({
    type: 'turn/start',
    text: `${conversation.clientName} called ${safeText(name)}`,
    model: conversation.title,
    by: conversation.clientName,
  });
  const declared = emit({
    type: 'batch/start',
    step: 1,
    batchId,
    mode: 'serial',
    reason: 'serial: one call from an MCP client, in a turn of its own',
    calls: [{ index: 0, callId, name, args }],
  });
  const startedAt = Date.now();
  const started = performance.now();
  const startJournaled = declared && emit({ type: 'tool/start', batchId, callId, name, index: 0 }, startedAt);
  let run: ToolCallRun;
  try {
    run = startJournaled
      ? await options.toolApi.run(
          { conversationId: conversation.id, caller: MCP_CALLER, signal: options.signal, turnId, callId, batchId },
          name,
          args,
        )
      : notJournaledRun({ name, what: declared ? 'tool/start' : 'batch/start' });
  } catch (error) {
    // The ToolAPI never throws for a call's own failure; if it does, the turn is still closed.
    closeUnfinished({ emit, batchId, callId, name, runMs: roundMs(performance.now() - started), startedAt });
    throw error;
  }
  const runMs = roundMs(performance.now() - started);
  const channel = options.toolApi.byName(name)?.outputChannel;
  if (run.output !== undefined && channel !== undefined)
    emit({ type: 'output/send', batchId, callId, index: 0, channel, text: run.output });
  emit({
    type: 'tool/end',
    batchId,
    callId,
    name,
    index: 0,
    ok: run.outcome.ok,
    ...(run.outcome.ok ? { result: run.outcome.value } : { error: run.outcome.error }),
    outcome: run.callOutcome,
    queuedMs: 0,
    runMs,
    ...(run.approvalMs !== undefined ? { approvalMs: run.approvalMs } : {}),
    startedAt,
    endedAt: startedAt + runMs,
  });
  emit({ type: 'batch/end', batchId, wallMs: runMs, executed: run.outcome.ok ? 1 : 0 });
  emit(
    options.signal.aborted
      ? { type: 'turn/end', reason: 'aborted', error: 'The MCP client stopped the call, or its session ended.' }
      : { type: 'turn/end', reason: 'done' },
  );
  return run;
}

/** The journal's end of a call whose run threw (the ToolAPI never should): unknown, since it may have started. */
function closeUnfinished(options: {
  emit: (event: AgentEventInput) => void;
  batchId: string;
  callId: string;
  name: string;
  runMs: number;
  startedAt: number;
}): void {
  const { emit, batchId, callId, name, runMs, startedAt } = options;
  emit({
    type: 'tool/end',
    batchId,
    callId,
    name,
    index: 0,
    ok: false,
    error: { reason: 'failed', detail: `${name} could not be run to its end.` },
    outcome: 'unknown',
    queuedMs: 0,
    runMs,
    startedAt,
    endedAt: startedAt + runMs,
  });
  emit({ type: 'batch/end', batchId, wallMs: runMs, executed: 0 });
  emit({ type: 'turn/end', reason: 'error', error: `${name} could not be run to its end.` });
}
