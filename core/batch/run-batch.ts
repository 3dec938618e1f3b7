import type { TurnScope } from '../events/turn-scope.ts';
import type { ToolMedia } from '../tools/tool-definition.ts';
import type { ToolOutcome } from '../tools/tool-result.ts';
import type { CallOutcome } from '../tools/call-outcome.ts';
import { decideBatchMode, outputChannelOf, type BatchPlan } from './decide-batch-mode.ts';
import { runToolCall, type PreparedCall, type ToolCallPipeline } from './run-tool-call.ts';

/** The result of one call, in the batch's index order. */
export interface BatchCallResult {
  call: PreparedCall;
  outcome: ToolOutcome;
  callOutcome: CallOutcome;
  media: ToolMedia[];
  queuedMs: number;
  runMs: number;
}

export interface BatchOptions {
  scope: TurnScope;
  batchId: string;
  step: number;
  calls: readonly PreparedCall[];
  pipeline: ToolCallPipeline;
  /** Cap on concurrent calls in a parallel batch; unset means no cap. */
  concurrencyCap?: number;
  /** Forces the batch serial whatever the declarations say (the bench's baseline). */
  forceSerial?: boolean;
  now?: () => number;
}

/**
 * Runs one batch: decides its mode by the scheduler's rule, runs the calls (concurrently, or
 * serially in index order), gives each call its own context, and returns the results in index
 * order — one per call, also for calls denied, failed, timed out or aborted.
 */
export async function runBatch(options: BatchOptions): Promise<BatchCallResult[]> {
  const now = options.now ?? (() => performance.now());
  const { scope, pipeline, calls, batchId } = options;
  const plan = planOf(options);
  scope.emit({
    type: 'batch/start',
    step: options.step,
    batchId,
    mode: plan.mode,
    reason: plan.reason,
    calls: calls.map((call) => ({ index: call.index, callId: call.callId, name: call.name, args: call.args })),
  });
  const batchStart = now();
  const wallStart = Date.now();
  const results: (BatchCallResult | undefined)[] = new Array(calls.length);
  let executed = 0;

  const runOne = async (position: number): Promise<void> => {
    const call = calls[position] as PreparedCall;
    const startedAt = now();
    const queuedMs = startedAt - batchStart;
    scope.emit({ type: 'tool/start', batchId, callId: call.callId, name: call.name, index: call.index });
    const run = await runToolCall({
      pipeline,
      call,
      identity: {
        conversationId: scope.conversationId,
        turnId: scope.turnId,
        batchId,
        callId: call.callId,
        index: call.index,
      },
      authorization: { conversationId: scope.conversationId, caller: 'agent' },
      signal: scope.signal,
      now,
    });
    const endedAt = now();
    const runMs = endedAt - startedAt;
    if (run.outcome.ok) executed++;
    results[position] = { call, outcome: run.outcome, callOutcome: run.callOutcome, media: run.media, queuedMs, runMs };
    const channel = call.tool ? outputChannelOf(call.tool) : undefined;
    if (run.output !== undefined && channel !== undefined) {
      scope.emit({ type: 'output/send', batchId, callId: call.callId, index: call.index, channel, text: run.output });
    }
    scope.emit({
      type: 'tool/end',
      batchId,
      callId: call.callId,
      name: call.name,
      index: call.index,
      ok: run.outcome.ok,
      ...(run.outcome.ok ? { result: run.outcome.value } : { error: run.outcome.error }),
      outcome: run.callOutcome,
      queuedMs: round(queuedMs),
      runMs: round(runMs),
      ...(run.approvalMs !== undefined ? { approvalMs: run.approvalMs } : {}),
      startedAt: wallStart + round(startedAt - batchStart),
      endedAt: wallStart + round(endedAt - batchStart),
    });
  };

  try {
    if (plan.mode === 'parallel') await runConcurrently(calls.length, options.concurrencyCap, runOne);
    else for (let position = 0; position < calls.length; position++) await runOne(position);
  } finally {
    scope.emit({ type: 'batch/end', batchId, wallMs: round(now() - batchStart), executed });
  }
  return results as BatchCallResult[];
}

/** The scheduler's plan, its reason naming what really decides the order (a cap included). */
function planOf(options: BatchOptions): BatchPlan {
  if (options.forceSerial) return { mode: 'serial', reason: 'serial: forced by the caller' };
  const plan = decideBatchMode(options.calls);
  const cap = options.concurrencyCap;
  if (plan.mode !== 'parallel' || cap === undefined || cap <= 0 || cap >= options.calls.length) return plan;
  return {
    mode: plan.mode,
    reason:
      cap === 1
        ? `${plan.reason}, but the cap of 1 parallel call ran them one after another`
        : `${plan.reason}; the cap let at most ${cap} run at once`,
  };
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

async function runConcurrently(
  count: number,
  cap: number | undefined,
  run: (position: number) => Promise<void>,
): Promise<void> {
  const limit = cap === undefined || cap <= 0 ? count : Math.min(cap, count);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) await run(next++);
  };
  await Promise.all(Array.from({ length: limit }, worker));
}
