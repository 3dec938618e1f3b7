import type { TurnEndReason } from '../events/agent-event.ts';
import type { TurnScope } from '../events/turn-scope.ts';
import type { ModelAdapter } from '../models/model-adapter.ts';
import type { ToolCallRecord } from '../models/conversation-message.ts';
import type { ConversationStore } from './conversation-store.ts';
import type { AssembledTurn, AgentSettings } from './assemble-turn.ts';
import type { PreparedCall, ToolCallPipeline } from '../batch/run-tool-call.ts';
import { ModelError } from '../models/model-error.ts';
import { ReplyLimitError } from './reply-limits.ts';
import { runBatch } from '../batch/run-batch.ts';
import { renderOutcomeForModel } from '../tools/tool-result.ts';
import { parseToolArguments } from '../stream/parse-tool-arguments.ts';
import { streamReply } from './stream-reply.ts';
import { requestReply } from './request-reply.ts';
import type { RequestHistory } from './request-history.ts';
import type { ContextKeeper } from '../context/context-keeper.ts';

export type StepResult = { kind: 'continue' } | { kind: 'end'; reason: TurnEndReason; error?: string };

const DEFAULT_TOOL_TIMEOUT_MS = 30_000;

/**
 * One step: record the request header, stream the reply, append one assistant message with the
 * text once and all complete calls, run them as one batch, append the results in index order.
 */
export async function runStep(options: {
  scope: TurnScope;
  step: number;
  model: ModelAdapter;
  assembled: AssembledTurn;
  settings: AgentSettings;
  store: ConversationStore;
  newId: () => string;
  pipeline: Omit<ToolCallPipeline, 'defaultTimeoutMs'>;
  /** The conversation's history kept between steps (read incrementally); absent: read whole. */
  history?: RequestHistory;
  /** What is known of the models' context windows; absent: the whole history is sent. */
  context?: ContextKeeper;
}): Promise<StepResult> {
  const { step, store, assembled, scope } = options;
  const { conversationId, signal, emit } = scope;
  const callPrefix = `call_${scope.turnId.slice(0, 8)}_${step}_`;
  // Every call answered once, right after its message, whatever an earlier crash left behind; the
  // history fitted to the model's window (sent once more, refitted, if the server refuses its length).
  const requested = await requestReply({
    scope,
    step,
    model: options.model,
    assembled,
    settings: options.settings,
    store,
    ...(options.history ? { history: options.history } : {}),
    ...(options.context ? { context: options.context } : {}),
    stream: (request) =>
      streamReply({
        model: options.model,
        request,
        signal,
        makeCallId: (position) => `${callPrefix}${position}`,
        onText: (text) => emit({ type: 'text/delta', step, text }),
        ...(options.settings.replyTimeoutMs !== undefined ? { timeoutMs: options.settings.replyTimeoutMs } : {}),
        ...(options.settings.replyMaxBytes !== undefined ? { maxBytes: options.settings.replyMaxBytes } : {}),
      }),
  });
  if (!requested.ok) return { kind: 'end', reason: 'error', error: requested.error };
  const { reply } = requested;

  if (reply.error !== undefined || signal.aborted) {
    if (reply.text) store.appendMessage(conversationId, { role: 'assistant', text: reply.text, toolCalls: [] });
    if (signal.aborted) return { kind: 'end', reason: 'aborted' };
    const cut =
      reply.calls.length > 0
        ? ` The reply was cut while it was making ${describeCalls(reply.calls)}; ${reply.calls.length === 1 ? 'that call was' : 'those calls were'} not run.`
        : '';
    return { kind: 'end', reason: 'error', error: `${modelErrorMessage(reply.error)}${cut}` };
  }
  const incomplete = reply.calls.filter((call) => !call.complete);
  if (incomplete.length > 0) {
    if (reply.text) store.appendMessage(conversationId, { role: 'assistant', text: reply.text, toolCalls: [] });
    const why =
      reply.finish === 'length'
        ? 'the model hit its output limit (max tokens)'
        : 'the stream ended before the call was complete';
    return {
      kind: 'end',
      reason: 'error',
      error: `The model's reply was cut off inside ${describeCalls(incomplete)}: ${why}. No tool of this reply was run.`,
    };
  }

  const prepared: PreparedCall[] = reply.calls.map((call) => {
    const parsed = parseToolArguments(call.argumentsText);
    const name = call.name as string;
    const tool = assembled.byName.get(name);
    const withheld = tool === undefined ? assembled.withheld?.(name) : undefined;
    const base = { index: call.index, callId: call.id, name, tool, ...(withheld ? { withheld } : {}) };
    return parsed.ok ? { ...base, args: parsed.args } : { ...base, args: {}, argumentsProblem: parsed.detail };
  });
  const toolCalls: ToolCallRecord[] = prepared.map((call, position) => ({
    id: call.callId,
    name: call.name,
    args: call.args,
    ...(call.argumentsProblem !== undefined ? { argumentsText: reply.calls[position]?.argumentsText ?? '' } : {}),
  }));
  // Journaled first, as every step is: a process killed between the two leaves an event without its
  // message, never a stored message (whose calls the start-up repair answers) the journal lacks.
  emit({ type: 'message/assistant', step, text: reply.text, toolCalls });
  store.appendMessage(conversationId, { role: 'assistant', text: reply.text, toolCalls });
  if (prepared.length === 0) return { kind: 'end', reason: 'done' };

  const results = await runBatch({
    scope,
    batchId: options.newId(),
    step,
    calls: prepared,
    pipeline: {
      ...options.pipeline,
      defaultTimeoutMs: options.settings.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    },
    ...(options.settings.concurrencyCap !== undefined ? { concurrencyCap: options.settings.concurrencyCap } : {}),
  });
  for (const result of results) {
    store.appendMessage(conversationId, {
      role: 'tool',
      toolCallId: result.call.callId,
      toolName: result.call.name,
      content: renderOutcomeForModel(result.outcome, result.callOutcome),
      isError: !result.outcome.ok,
      ...(result.media.length > 0 ? { media: result.media } : {}),
    });
  }
  if (signal.aborted) return { kind: 'end', reason: 'aborted' };
  return { kind: 'continue' };
}

function describeCalls(calls: readonly { name: string | undefined }[]): string {
  return calls.map((call) => `the tool call ${call.name ?? '(unnamed)'}`).join(', ');
}

function modelErrorMessage(error: unknown): string {
  if (ModelError.isInstance(error) || ReplyLimitError.isInstance(error)) return error.message;
  return `the model request failed: ${(error as Error)?.message ?? String(error)}`;
}
