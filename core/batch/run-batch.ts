import type { AgentEventInput } from '../events/agent-event.ts';
import type { ToolMedia } from '../tools/tool-definition.ts';
import type { ToolOutcome } from '../tools/tool-result.ts';
import { decideBatchMode, outputChannelOf } from './decide-batch-mode.ts';
import { runToolCall, type PreparedCall, type ToolCallPipeline } from './run-tool-call.ts';

/** The result of one call, in the batch's index order. */
export interface BatchCallResult {
  call: PreparedCall;
  outcome: ToolOutcome;
  media: ToolMedia[];
  queuedMs: number;
  runMs: number;
}

export interface BatchOptions {
  batchId: string;
  step: number;
  conversationId: string;
  turnId: string;
  calls: readonly PreparedCall[];
  pipeline: ToolCallPipeline;
  /** Cap on concurrent calls in a parallel batch; unset means no cap. */
  concurrencyCap?: number;
  /** Forces the batch serial whatever the declarations say (the bench's baseline). */
  forceSerial?: boolean;
  signal: AbortSignal;
  emit(event: AgentEventInput): void;
  now?: () => number;
}

/**
 * Runs one batch: decides its mode by the scheduler's rule, runs the calls (concurrently, or
 * serially in index order), gives each call its own context, and returns the results in index
 * order — one per call, also for calls denied, failed, timed out or aborted.
 */
export async function runBatch(options: BatchOptions): Promise<BatchCallResult[]> {
  const now = options.now ?? (() => performance.now());
  const { pipeline, calls } = options;
  const plan = options.forceSerial
    ? { mode: 'serial' as const, reason: 'serial: forced by the caller' }
    : decideBatchMode(calls.map((call) => ({ name: call.name, tool: pipeline.lookUp(call.name) })));
  options.emit({
    type: 'batch/start',
    step: options.step,
    batchId: options.batchId,
    mode: plan.mode,
    reason: plan.reason,
    calls: calls.map((call) => ({ index: call.index, callId: call.callId, name: call.name, args: call.args })),
  });
  const batchStart = now();
  const wallStart = Date.now();
  const results: (BatchCallResult | undefined)[] = new Array(calls.length);
  let executed = 0;
  // One listener on the caller's signal fans the abort out to the running calls; a listener per
  // call would grow with the batch (Node warns past 10 listeners on one signal).
  const running = new Set<AbortController>();
  const abortRunning = (): void => {
    for (const controller of running) controller.abort(options.signal.reason);
  };
  options.signal.addEventListener('abort', abortRunning, { once: true });

  const runOne = async (position: number): Promise<void> => {
    const call = calls[position] as PreparedCall;
    const startedAt = now();
    const queuedMs = startedAt - batchStart;
    options.emit({
      type: 'tool/start',
      batchId: options.batchId,
      callId: call.callId,
      name: call.name,
      index: call.index,
    });
    const controller = new AbortController();
    if (options.signal.aborted) controller.abort(options.signal.reason);
    else running.add(controller);
    let run: Awaited<ReturnType<typeof runToolCall>>;
    try {
      run = await runToolCall({
        pipeline,
        call,
        context: {
          conversationId: options.conversationId,
          turnId: options.turnId,
          batchId: options.batchId,
          callId: call.callId,
          index: call.index,
        },
        authorization: { conversationId: options.conversationId, caller: 'agent' },
        signal: controller.signal,
      });
    } finally {
      running.delete(controller);
    }
    const endedAt = now();
    const runMs = endedAt - startedAt;
    if (run.outcome.ok) executed++;
    results[position] = { call, outcome: run.outcome, media: run.media, queuedMs, runMs };
    const tool = pipeline.lookUp(call.name);
    const channel = tool ? outputChannelOf(tool) : undefined;
    if (run.outcome.ok && channel !== undefined) {
      options.emit({
        type: 'output/send',
        batchId: options.batchId,
        callId: call.callId,
        index: call.index,
        channel,
        text: String(call.args.text ?? ''),
      });
    }
    options.emit({
      type: 'tool/end',
      batchId: options.batchId,
      callId: call.callId,
      name: call.name,
      index: call.index,
      ok: run.outcome.ok,
      ...(run.outcome.ok ? { result: run.outcome.value } : { error: run.outcome.error }),
      queuedMs: round(queuedMs),
      runMs: round(runMs),
      startedAt: wallStart + round(startedAt - batchStart),
      endedAt: wallStart + round(endedAt - batchStart),
    });
  };

  try {
    if (plan.mode === 'parallel') await runConcurrently(calls.length, options.concurrencyCap, runOne);
    else for (let position = 0; position < calls.length; position++) await runOne(position);
  } finally {
    options.signal.removeEventListener('abort', abortRunning);
    options.emit({ type: 'batch/end', batchId: options.batchId, wallMs: round(now() - batchStart), executed });
  }
  return results as BatchCallResult[];
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
