import type { TurnScope } from '../events/turn-scope.ts';
import type { ToolMedia } from '../tools/tool-definition.ts';
import type { ToolOutcome } from '../tools/tool-result.ts';
import type { CallOutcome } from '../tools/call-outcome.ts';
import { decideBatchMode, outputChannelOf, type BatchPlan } from './decide-batch-mode.ts';
import { runToolCall, type PreparedCall, type ToolCallPipeline } from './run-tool-call.ts';
import { notJournaledOutcome } from './not-journaled.ts';
import { boundedArguments } from '../tools/argument-bounds.ts';
import { roundMs } from '../events/round-ms.ts';

/** The result of one call, in the batch's index order. */
export interface BatchCallResult {
  call: PreparedCall;
  outcome: ToolOutcome;
  callOutcome: CallOutcome;
  media: ToolMedia[];
  queuedMs: number;
  runMs: number;
}

/** How the batch runs once its calls are all known. */
export interface BatchRunPolicy {
  /** Cap on concurrent calls in a parallel batch; unset means no cap. */
  concurrencyCap?: number;
  /** Forces the batch serial whatever the declarations say (the bench's baseline). */
  forceSerial?: boolean;
}

export interface BatchOptions extends BatchRunPolicy {
  scope: TurnScope;
  batchId: string;
  step: number;
  calls: readonly PreparedCall[];
  pipeline: ToolCallPipeline;
  now?: () => number;
}

/**
 * Runs one batch: decides its mode by the scheduler's rule, runs the calls (concurrently, or
 * serially in index order), gives each call its own context, and returns the results in index
 * order — one per call, also for calls denied, failed, timed out or aborted.
 */
export async function runBatch(options: BatchOptions): Promise<BatchCallResult[]> {
  return new BatchRun(options).finish(options.calls, options);
}

/**
 * One batch over its life: `batch/open` first; while the reply still streams, complete calls
 * `offer`ed in index order start one at a time (call n + 1 once call n has ended: the only order
 * safe in both modes, which are unknown until the reply ends); then either `finish` with every
 * call (`batch/start` with the final mode: a parallel batch starts all the rest at once, a serial
 * one goes on in order) or, when the reply was cut or stopped, `stopEarly` and `closeCut` (nothing
 * more starts; the calls offered but never started are answered `not_sent`). Every call's result
 * comes back once, in index order; `batch/end` closes it on every path. A call runs only once the
 * journal holds its declaration and its start: when `batch/start` or its `tool/start` cannot be
 * journaled it is answered `not_sent` without running. Arguments that break a bound are journaled
 * as a bounded stand-in (and refused by runToolCall).
 */
export class BatchRun {
  private readonly now: () => number;
  private origin = 0;
  private wallStart = 0;
  private opened = false;
  private executed = 0;
  private readonly results = new Map<string, BatchCallResult>();
  private readonly started = new Set<string>();
  /** Offered while the reply streams and not started yet, in index order. */
  private readonly pending: PreparedCall[] = [];
  private readonly offered: PreparedCall[] = [];
  private inFlight: Promise<void> | undefined;
  private early = true;
  /** The journal could not record `batch/start`: no call that had not started may start. */
  private undeclared = false;

  constructor(private readonly options: Omit<BatchOptions, 'calls'>) {
    this.now = options.now ?? (() => performance.now());
  }

  get batchId(): string {
    return this.options.batchId;
  }

  /** The calls offered while the reply streamed (each has started, or waits for the one before it). */
  get offeredCalls(): readonly PreparedCall[] {
    return this.offered;
  }

  /** Whether the call has started (it then has, or will have, its own result). */
  hasStarted(callId: string): boolean {
    return this.started.has(callId);
  }

  /** Emits `batch/open` once; queued times count from here. */
  open(): void {
    if (this.opened) return;
    this.opened = true;
    this.origin = this.now();
    this.wallStart = Date.now();
    this.options.scope.emit({ type: 'batch/open', batchId: this.options.batchId, step: this.options.step });
  }

  /** A complete call, the next in index order, while the reply streams: it starts once the one before it ended. */
  offer(call: PreparedCall): void {
    this.open();
    this.offered.push(call);
    this.pending.push(call);
    this.pump();
  }

  /** The reply ended whole: declares every call with the final mode and runs those not started. */
  async finish(calls: readonly PreparedCall[], policy: BatchRunPolicy = {}): Promise<BatchCallResult[]> {
    this.open();
    this.early = false;
    this.pending.length = 0;
    const plan = planOf(calls, policy);
    this.declare(calls, plan);
    const rest = calls.filter((call) => !this.started.has(call.callId));
    try {
      if (plan.mode === 'parallel') await this.runConcurrently(rest, policy.concurrencyCap);
      else {
        await this.inFlight;
        for (const call of rest) await this.runOne(call, false);
      }
    } finally {
      this.emitEnd();
    }
    return calls.map((call) => this.results.get(call.callId) as BatchCallResult);
  }

  /** The reply was cut or stopped: nothing more starts; resolves once the call running, if any, has ended. */
  async stopEarly(): Promise<void> {
    this.early = false;
    await this.inFlight;
  }

  /**
   * After `stopEarly`: declares the calls offered (serial: they ran one at a time), answers those
   * that never started `not_sent` with `why`, ends the batch, and returns every result in index order.
   */
  closeCut(why: (call: PreparedCall) => string): BatchCallResult[] {
    const calls = [...this.offered];
    this.declare(calls, {
      mode: 'serial',
      reason:
        'serial: the reply did not end whole, so only the calls that had started while it streamed ran, one at a time',
    });
    for (const call of calls) {
      if (this.started.has(call.callId)) continue;
      this.answerUnrun(call, { ok: false, error: { reason: 'aborted', detail: why(call) } });
    }
    this.emitEnd();
    return calls.map((call) => this.results.get(call.callId) as BatchCallResult);
  }

  private pump(): void {
    if (this.inFlight || !this.early) return;
    const next = this.pending.shift();
    if (!next) return;
    this.inFlight = this.runOne(next, true).finally(() => {
      this.inFlight = undefined;
      this.pump();
    });
  }

  private declare(calls: readonly PreparedCall[], plan: BatchPlan): void {
    const bounds = this.options.pipeline.argumentBounds?.();
    const journaled = this.options.scope.emit({
      type: 'batch/start',
      step: this.options.step,
      batchId: this.options.batchId,
      mode: plan.mode,
      reason: plan.reason,
      calls: calls.map((call) => ({
        index: call.index,
        callId: call.callId,
        name: call.name,
        args: boundedArguments(call.args, bounds),
      })),
    });
    if (journaled === false) this.undeclared = true;
  }

  /** Answers a call that never started (nothing was sent): its result, and a `tool/end` without a `tool/start`. */
  private answerUnrun(call: PreparedCall, outcome: ToolOutcome): void {
    const queuedMs = roundMs(this.now() - this.origin);
    this.results.set(call.callId, { call, outcome, callOutcome: 'not_sent', media: [], queuedMs, runMs: 0 });
    const at = this.wallStart + queuedMs;
    this.options.scope.emit({
      type: 'tool/end',
      batchId: this.options.batchId,
      callId: call.callId,
      name: call.name,
      index: call.index,
      ok: false,
      ...(outcome.ok ? {} : { error: outcome.error }),
      outcome: 'not_sent',
      ...(call.tool?.reaches !== undefined ? { reaches: call.tool.reaches } : {}),
      queuedMs,
      runMs: 0,
      startedAt: at,
      endedAt: at,
    });
  }

  private emitEnd(): void {
    this.options.scope.emit({
      type: 'batch/end',
      batchId: this.options.batchId,
      wallMs: roundMs(this.now() - this.origin),
      executed: this.executed,
    });
  }

  /** Runs the rest at once (at most `cap` at a time, the call still running early counted). */
  private async runConcurrently(calls: readonly PreparedCall[], cap: number | undefined): Promise<void> {
    const limit = cap === undefined || cap <= 0 ? calls.length + 1 : cap;
    let next = 0;
    const worker = async (first?: Promise<void>): Promise<void> => {
      await first;
      while (next < calls.length) await this.runOne(calls[next++] as PreparedCall, false);
    };
    const running = this.inFlight;
    const workers = running ? [worker(running)] : [];
    while (workers.length < limit && workers.length < calls.length + (running ? 1 : 0)) workers.push(worker());
    await Promise.all(workers);
  }

  private async runOne(call: PreparedCall, early: boolean): Promise<void> {
    const { scope, pipeline, batchId } = this.options;
    this.started.add(call.callId);
    const startedAt = this.now();
    const queuedMs = startedAt - this.origin;
    const refused = this.undeclared
      ? 'batch/start'
      : scope.emit({
            type: 'tool/start',
            batchId,
            callId: call.callId,
            name: call.name,
            index: call.index,
            ...(early ? { early: true as const, args: boundedArguments(call.args, pipeline.argumentBounds?.()) } : {}),
          }) === false
        ? 'tool/start'
        : undefined;
    if (refused !== undefined) {
      this.answerUnrun(call, notJournaledOutcome({ name: call.name, what: refused }));
      return;
    }
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
      now: this.now,
      // The person's edit, journaled before it runs: a second `tool/start` with what runs and what the model asked.
      onArgumentsEdited: (args) =>
        scope.emit({
          type: 'tool/start',
          batchId,
          callId: call.callId,
          name: call.name,
          index: call.index,
          args: boundedArguments(args, pipeline.argumentBounds?.()),
          modelArgs: boundedArguments(call.args, pipeline.argumentBounds?.()),
        }) !== false,
      onProgress: (update) => scope.emit({ type: 'tool/progress', batchId, callId: call.callId, ...update }),
    });
    const endedAt = this.now();
    const runMs = endedAt - startedAt;
    if (run.outcome.ok) this.executed++;
    this.results.set(call.callId, {
      call,
      outcome: run.outcome,
      callOutcome: run.callOutcome,
      media: run.media,
      queuedMs,
      runMs,
    });
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
      ...(call.tool?.reaches !== undefined ? { reaches: call.tool.reaches } : {}),
      queuedMs: roundMs(queuedMs),
      runMs: roundMs(runMs),
      ...(run.approvalMs !== undefined ? { approvalMs: run.approvalMs } : {}),
      startedAt: this.wallStart + roundMs(startedAt - this.origin),
      endedAt: this.wallStart + roundMs(endedAt - this.origin),
    });
  }
}

/** The scheduler's plan, its reason naming what really decides the order (a cap included). */
function planOf(calls: readonly PreparedCall[], policy: BatchRunPolicy): BatchPlan {
  if (policy.forceSerial) return { mode: 'serial', reason: 'serial: forced by the caller' };
  const plan = decideBatchMode(calls);
  const cap = policy.concurrencyCap;
  if (plan.mode !== 'parallel' || cap === undefined || cap <= 0 || cap >= calls.length) return plan;
  return {
    mode: plan.mode,
    reason:
      cap === 1
        ? `${plan.reason}, but the cap of 1 parallel call ran them one after another`
        : `${plan.reason}; the cap let at most ${cap} run at once`,
  };
}
