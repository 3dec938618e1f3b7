import type { TurnEndReason } from '../events/agent-event.ts';
import type { TurnScope } from '../events/turn-scope.ts';
import type { ToolCallRecord } from '../models/conversation-message.ts';
import type { ConversationStore } from './conversation-store.ts';
import type { PreparedCall, ToolCallPipeline } from '../batch/run-tool-call.ts';
import { ModelError } from '../models/model-error.ts';
import { ReplyLimitError } from './reply-limits.ts';
import { BatchRun, type BatchCallResult } from '../batch/run-batch.ts';
import type { AccumulatedToolCall } from '../stream/tool-call-accumulator.ts';
import { renderOutcomeForModel } from '../tools/tool-result.ts';
import { parseToolArguments } from '../stream/parse-tool-arguments.ts';
import { boundedArgumentsText, type ArgumentBounds } from '../tools/argument-bounds.ts';
import { streamReply } from './stream-reply.ts';
import { DEFAULT_TOOL_TIMEOUT_MS } from '../tools/tool-timeout.ts';
import { DEFAULT_EARLY_TOOL_START } from './turn-defaults.ts';
import { requestReply } from './request-reply.ts';

/**
 * What a step hands on to requestReply as given: the turn's scope, its step, model, prompt, settings
 * and store, the history kept between steps and what is known of the models' context windows.
 */
type ReplyInputs = Omit<Parameters<typeof requestReply>[0], 'stream'>;

export type StepResult = { kind: 'continue' } | { kind: 'end'; reason: TurnEndReason; error?: string };

/**
 * One step: record the request header, stream the reply, append one assistant message with the
 * text once and all complete calls, run them as one batch, append the results in index order.
 * Unless `earlyToolStart` is off, calls the wire says are complete start while the reply still
 * streams, one at a time in index order (`BatchRun`); the final mode decides the rest.
 */
export async function runStep(
  options: ReplyInputs & {
    newId: () => string;
    pipeline: Omit<ToolCallPipeline, 'defaultTimeoutMs'>;
  },
): Promise<StepResult> {
  const { step, store, assembled, scope } = options;
  const { conversationId, signal, emit } = scope;
  const callPrefix = `call_${scope.turnId.slice(0, 8)}_${step}_`;
  // Read once a step: the reply's calls, their journal events and their messages keep one bound.
  const bounds = options.pipeline.argumentBounds?.();
  const prepare = (call: AccumulatedToolCall): PreparedCall => {
    const parsed = parseToolArguments(call.argumentsText, bounds);
    const name = call.name as string;
    const tool = assembled.byName.get(name);
    const withheld = tool === undefined ? assembled.withheld?.(name) : undefined;
    const base = { index: call.index, callId: call.id, name, tool, ...(withheld ? { withheld } : {}) };
    return parsed.ok ? { ...base, args: parsed.args } : { ...base, args: {}, argumentsProblem: parsed.detail };
  };
  // The batch is made when its first call is complete (while the reply streams) or when the reply ends.
  let batch: BatchRun | undefined;
  const batchRun = (): BatchRun =>
    (batch ??= new BatchRun({
      scope,
      batchId: options.newId(),
      step,
      pipeline: { ...options.pipeline, defaultTimeoutMs: options.settings.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS },
    }));
  const argumentsTexts = new Map<string, string>();
  // Every call answered once, right after its message, whatever an earlier crash left behind; the
  // history fitted to the model's window (sent once more, refitted, if the server refuses its length:
  // a refusal comes before any byte of the reply, so no call has started early then).
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
        ...((options.settings.earlyToolStart ?? DEFAULT_EARLY_TOOL_START) === 'on'
          ? {
              onFinal: (call: AccumulatedToolCall) => {
                argumentsTexts.set(call.id, call.argumentsText);
                batchRun().offer(prepare(call));
              },
            }
          : {}),
      }),
  });
  if (!requested.ok) return { kind: 'end', reason: 'error', error: requested.error };
  const { reply } = requested;

  const incomplete = reply.calls.filter((call) => !call.complete);
  if (reply.error !== undefined || signal.aborted || incomplete.length > 0) {
    const why =
      reply.error !== undefined || signal.aborted
        ? modelErrorMessage(reply.error)
        : `The model's reply was cut off inside ${describeCalls(incomplete)}: ${
            reply.finish === 'length'
              ? 'the model hit its output limit (max tokens)'
              : 'the stream ended before the call was complete'
          }.`;
    if (batch && batch.offeredCalls.length > 0)
      return cutWithEarlyCalls({ ...options, batch, text: reply.text, why, argumentsTexts, bounds });
    if (reply.text) store.appendMessage(conversationId, { role: 'assistant', text: reply.text, toolCalls: [] });
    if (signal.aborted) return { kind: 'end', reason: 'aborted' };
    if (reply.error !== undefined) {
      const cut =
        reply.calls.length > 0
          ? ` The reply was cut while it was making ${describeCalls(reply.calls)}; ${reply.calls.length === 1 ? 'that call was' : 'those calls were'} not run.`
          : '';
      return { kind: 'end', reason: 'error', error: `${why}${cut}` };
    }
    return { kind: 'end', reason: 'error', error: `${why} No tool of this reply was run.` };
  }

  const early = new Map((batch?.offeredCalls ?? []).map((call) => [call.callId, call]));
  const prepared: PreparedCall[] = reply.calls.map((call) => early.get(call.id) ?? prepare(call));
  const toolCalls = toolCallRecords(
    prepared,
    (callId) => reply.calls.find((call) => call.id === callId)?.argumentsText,
    bounds,
  );
  // Journaled first, as every step is: a process killed between the two leaves an event without its
  // message, never a stored message (whose calls the start-up repair answers) the journal lacks.
  emit({ type: 'message/assistant', step, text: reply.text, toolCalls });
  store.appendMessage(conversationId, { role: 'assistant', text: reply.text, toolCalls });
  if (prepared.length === 0) return { kind: 'end', reason: 'done' };

  const results = await batchRun().finish(prepared, {
    ...(options.settings.concurrencyCap !== undefined ? { concurrencyCap: options.settings.concurrencyCap } : {}),
  });
  appendResults(store, conversationId, results);
  if (signal.aborted) return { kind: 'end', reason: 'aborted' };
  return { kind: 'continue' };
}

/**
 * A reply that did not end whole (cut, over a limit, unreadable, stopped) after some of its calls
 * started early: nothing more starts; the call running finishes; the assistant message holds the
 * calls that were complete and handed over, each answered once (`not_sent` for those that never
 * started); the error names what ran.
 */
async function cutWithEarlyCalls(options: {
  scope: TurnScope;
  step: number;
  store: ConversationStore;
  batch: BatchRun;
  text: string;
  why: string;
  argumentsTexts: ReadonlyMap<string, string>;
  bounds: ArgumentBounds | undefined;
}): Promise<StepResult> {
  const { scope, step, store, batch } = options;
  await batch.stopEarly();
  const calls = batch.offeredCalls;
  const toolCalls = toolCallRecords(calls, (callId) => options.argumentsTexts.get(callId), options.bounds);
  scope.emit({ type: 'message/assistant', step, text: options.text, toolCalls });
  store.appendMessage(scope.conversationId, { role: 'assistant', text: options.text, toolCalls });
  const stopped = scope.signal.aborted;
  const results = batch.closeCut(
    (call) =>
      `${call.name} was complete but never started: ${stopped ? 'the turn was stopped' : 'the reply did not end whole'} while it streamed, so nothing more started.`,
  );
  appendResults(store, scope.conversationId, results);
  if (stopped) return { kind: 'end', reason: 'aborted' };
  const ran = results.filter((result) => batch.hasStarted(result.call.callId));
  const never = results.filter((result) => !ran.includes(result));
  const ranWords = `${listCalls(ran.map((result) => result.call))} had started while the reply streamed and ran to ${ran.length === 1 ? 'its' : 'their'} end`;
  const neverWords =
    never.length > 0 ? `; ${listCalls(never.map((result) => result.call))} never started (not sent)` : '';
  return {
    kind: 'end',
    reason: 'error',
    error: `${options.why} ${ranWords}${neverWords}; no other tool of this reply was run.`,
  };
}

/**
 * The calls as the assistant message stores them (with the model's text where its arguments were not
 * JSON, cut to a preview when it is over the size bound: the journal and the messages keep the same).
 */
function toolCallRecords(
  calls: readonly PreparedCall[],
  argumentsTextOf: (callId: string) => string | undefined,
  bounds: ArgumentBounds | undefined,
): ToolCallRecord[] {
  return calls.map((call) => ({
    id: call.callId,
    name: call.name,
    args: call.args,
    ...(call.argumentsProblem !== undefined
      ? { argumentsText: boundedArgumentsText(argumentsTextOf(call.callId) ?? '', bounds) }
      : {}),
  }));
}

/** Every result, in index order, right after the assistant message. */
function appendResults(store: ConversationStore, conversationId: string, results: readonly BatchCallResult[]): void {
  for (const result of results) {
    store.appendMessage(conversationId, {
      role: 'tool',
      toolCallId: result.call.callId,
      toolName: result.call.name,
      content: renderOutcomeForModel(
        result.outcome,
        result.callOutcome,
        result.call.tool?.reaches !== undefined ? { reaches: result.call.tool.reaches } : {},
      ),
      isError: !result.outcome.ok,
      ...(result.media.length > 0 ? { media: result.media } : {}),
    });
  }
}

/** `lamp__set (call 1), thermometer__read (call 2)`: 1-based, as people count. */
function listCalls(calls: readonly PreparedCall[]): string {
  return calls.map((call) => `${call.name} (call ${call.index + 1})`).join(', ');
}

function describeCalls(calls: readonly { name: string | undefined }[]): string {
  return calls.map((call) => `the tool call ${call.name ?? '(unnamed)'}`).join(', ');
}

function modelErrorMessage(error: unknown): string {
  if (ModelError.isInstance(error) || ReplyLimitError.isInstance(error)) return error.message;
  return `the model request failed: ${(error as Error)?.message ?? String(error)}`;
}
