import type { ToolApi } from '../../tools/tool-api.ts';
import { ToolError, type ToolErrorData } from '../../tools/tool-error.ts';
import { errorDataOf, type ToolOutcome } from '../../tools/tool-result.ts';
import type { CallOutcome } from '../../tools/call-outcome.ts';
import { INPUT_SLOT, type Sequence, type SequenceCall } from './sequence-schema.ts';
import { parseCondition } from './parse-condition.ts';
import { ConditionError, evaluateCondition } from './evaluate-condition.ts';
import { resolveSlotReferences } from './slot-reference.ts';
import { refusedInSequence } from './refused-in-sequence.ts';
import { DEFAULT_MAX_CALL_DEPTH } from './check-sequence-graph.ts';
import type { SequenceCallReport, SequenceGroupReport, SequenceRunReport, SlotValue } from './sequence-run-report.ts';
import { DEFAULT_SEQUENCE_BUDGET, RunBudget, describeBudget, type SequenceBudget } from './sequence-budget.ts';

/** The caller name the CanUse gate sees for calls made by a sequence. */
export const SEQUENCE_CALLER = 'sequences';

export interface RunSequenceOptions {
  sequence: Sequence;
  toolApi: ToolApi;
  /** Finds the target of a `sequence:` call when it runs (sequences come and go). */
  loadSequence: (name: string) => Promise<Sequence | undefined>;
  conversationId: string;
  turnId?: string;
  /** The caller's abort (the turn's, or `seq_run`'s call signal). */
  signal: AbortSignal;
  /** What the `input` slot holds. */
  input?: Record<string, unknown>;
  /** What the whole run may spend, nested sequences included; unset fields take DEFAULT_SEQUENCE_BUDGET's. */
  budget?: Partial<SequenceBudget>;
  /** The clock the wall-time budget reads (milliseconds); injectable so tests are deterministic. */
  now?: () => number;
  /** `sequence:` hops allowed below this run (default 4). */
  maxCallDepth?: number;
  /**
   * Told when a call of the run (nested runs included) may have acted: its handler started, or its
   * request left. Until then nothing of the run reached the home, so a stopped run is `not_sent`.
   */
  onLeave?: () => void;
}

interface Level {
  options: RunSequenceOptions;
  signal: AbortSignal;
  budget: RunBudget;
  maxCallDepth: number;
  /** The chain of sequences from the top run down to this one. */
  stack: string[];
}

/**
 * Runs a sequence: groups one after another; the calls of a group concurrently, each through
 * `toolApi.call` (so the CanUse gate applies) with the run's AbortSignal; outcomes land in slots.
 * A failed call does not stop its group or later groups; a failed or refused one carries what is
 * known of its effect (`outcome`: never `unknown` for a call that never left). The run's budget (calls, result size,
 * wall time; nested runs included) is enforced while it runs: when one trips, the run's signal
 * aborts calls in progress, nothing more starts, and the report says `stopped` and which `budget`.
 * Never throws; returns the report.
 */
export async function runSequence(options: RunSequenceOptions): Promise<SequenceRunReport> {
  const limits: SequenceBudget = { ...DEFAULT_SEQUENCE_BUDGET, ...options.budget };
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(options.signal.reason);
  if (options.signal.aborted) controller.abort(options.signal.reason);
  else options.signal.addEventListener('abort', onAbort, { once: true });
  const budget = new RunBudget({
    budget: limits,
    now: options.now ?? (() => performance.now()),
    stop: (exceeded) =>
      controller.abort(
        new ToolError({
          reason: exceeded.budget === 'wall_time' ? 'timeout' : 'failed',
          detail: `the sequence ${options.sequence.name} reached its budget of ${describeBudget(exceeded)} per run`,
        }),
      ),
  });
  // The timer stops calls that wait on real work; calls that answer at once meet the clock check.
  const timer = setTimeout(() => budget.timeUp(), limits.wallTimeMs);
  try {
    const level: Level = {
      options,
      signal: controller.signal,
      budget,
      maxCallDepth: options.maxCallDepth ?? DEFAULT_MAX_CALL_DEPTH,
      stack: [options.sequence.name],
    };
    return (await runLevel(level, options.sequence, options.input ?? {})).report;
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener('abort', onAbort);
  }
}

async function runLevel(
  level: Level,
  sequence: Sequence,
  input: Record<string, unknown>,
): Promise<{ report: SequenceRunReport; slots: Map<string, unknown> }> {
  const slots = new Map<string, unknown>([[INPUT_SLOT, input]]);
  const groups: SequenceGroupReport[] = [];
  let stopped = false;
  let notStarted: SequenceRunReport['notStarted'];
  for (const [position, group] of sequence.groups.entries()) {
    if (level.signal.aborted) {
      // Counted, not listed: a stopped run (and each nested run in it) adds one line, whatever its size.
      stopped = true;
      const rest = sequence.groups.slice(position);
      notStarted = countNotStarted(
        notStarted,
        { groups: rest.length, calls: rest.reduce((count, item) => count + item.calls.length, 0) },
        level,
      );
      break;
    }
    // Slots are written after the whole group: no call of a group can see another's outcome.
    // A store or ToolAPI that throws (a database error) fails that one call, never the run.
    const results = await Promise.all(
      group.calls.map((call, index) =>
        runCall(level, { call, index, slots }).catch((error: unknown) => failed(call, index, errorDataOf(error))),
      ),
    );
    results.forEach((result, index) => {
      const slot = group.calls[index]?.slot;
      if (slot !== undefined) slots.set(slot, result.slot);
      if (level.signal.aborted && (result.report.status === 'failed' || result.report.status === 'skipped'))
        stopped = true;
    });
    const listed = results.filter((result) => result.notStarted !== true).map((result) => result.report);
    if (listed.length < results.length) {
      notStarted = countNotStarted(
        notStarted,
        { groups: listed.length === 0 ? 1 : 0, calls: results.length - listed.length },
        level,
      );
    }
    if (listed.length > 0) groups.push({ id: group.id, calls: listed });
  }
  const ok =
    !stopped && groups.every((group) => group.calls.every((call) => call.status === 'ok' || call.status === 'skipped'));
  const report: SequenceRunReport = { sequence: sequence.name, groups, ok };
  if (stopped) {
    report.stopped = stopKind(level);
    if (level.budget.exceeded) report.budget = level.budget.exceeded;
    if (notStarted) report.notStarted = notStarted;
  }
  return { report, slots };
}

function countNotStarted(
  sum: SequenceRunReport['notStarted'],
  add: { groups: number; calls: number },
  level: Level,
): NonNullable<SequenceRunReport['notStarted']> {
  return {
    groups: (sum?.groups ?? 0) + add.groups,
    calls: (sum?.calls ?? 0) + add.calls,
    error: sum?.error ?? stopError(level),
  };
}

function identify(call: SequenceCall, index: number): Pick<SequenceCallReport, 'index' | 'tool' | 'sequence' | 'slot'> {
  const report: Pick<SequenceCallReport, 'index' | 'tool' | 'sequence' | 'slot'> = { index };
  if (call.tool !== undefined) report.tool = call.tool;
  if (call.sequence !== undefined) report.sequence = call.sequence;
  if (call.slot !== undefined) report.slot = call.slot;
  return report;
}

function stopKind(level: Level): 'aborted' | 'timeout' | 'budget' {
  const exceeded = level.budget.exceeded;
  if (exceeded) return exceeded.budget === 'wall_time' ? 'timeout' : 'budget';
  const reason: unknown = level.signal.reason;
  return ToolError.isInstance(reason) && reason.reason === 'timeout' ? 'timeout' : 'aborted';
}

function stopError(level: Level): ToolErrorData {
  const kind = stopKind(level);
  if (kind === 'budget')
    return {
      reason: 'failed',
      detail: `the run's budget of ${level.budget.exceededText} was used up before this call`,
    };
  return {
    reason: kind === 'timeout' ? 'timeout' : 'aborted',
    detail:
      kind === 'timeout'
        ? 'the sequence ran out of time before this call'
        : 'the sequence was stopped before this call',
  };
}

/** A call the stop kept from starting: counted in the report's `notStarted`, not listed. */
function skipped(level: Level, call: SequenceCall, index: number): CallResult {
  const error = stopError(level);
  return {
    report: { ...identify(call, index), status: 'skipped', error },
    slot: { ok: false, skipped: true, error },
    notStarted: true,
  };
}

type CallResult = { report: SequenceCallReport; slot: SlotValue; notStarted?: true };

function failed(
  call: SequenceCall,
  index: number,
  error: ToolErrorData,
  status: 'failed' | 'refused' = 'failed',
): CallResult {
  return { report: { ...identify(call, index), status, error }, slot: { ok: false, error } };
}

async function runCall(
  level: Level,
  options: { call: SequenceCall; index: number; slots: Map<string, unknown> },
): Promise<CallResult> {
  const { call, index, slots } = options;
  if (level.signal.aborted) return skipped(level, call, index);
  // Every call a run reaches spends one call of the budget, a false condition included (else
  // thousands of skipped calls per nested run would cost nothing). Pacing lets the calls already
  // started run (and timers fire) before more start, so the clock check sees the time they take.
  await level.budget.pace();
  if (!level.budget.startCall()) return skipped(level, call, index);
  if (call.when !== undefined) {
    const condition = parseCondition(call.when);
    if (!condition.ok) return failed(call, index, { reason: 'type', field: 'when', detail: condition.detail });
    let holds: unknown;
    try {
      holds = evaluateCondition(condition.condition, slots);
    } catch (error) {
      if (!(error instanceof ConditionError)) throw error;
      return failed(call, index, {
        reason: 'failed',
        field: 'when',
        detail: `the condition '${call.when}' could not be evaluated: ${error.message}`,
      });
    }
    if (!holds) return { report: { ...identify(call, index), status: 'skipped' }, slot: { ok: false, skipped: true } };
  }
  const args = resolveSlotReferences(call.args ?? {}, slots);
  if (call.sequence !== undefined) return runNested(level, { call, index, args, target: call.sequence });
  const tool = call.tool ?? '';
  const refusal = refusedInSequence(level.options.toolApi.byName(tool) ?? { name: tool });
  if (refusal)
    return failed(
      call,
      index,
      { reason: 'unauthorized', detail: refusal, hint: 'Call it outside the sequence, in a reply of its own.' },
      'refused',
    );
  const context = {
    conversationId: level.options.conversationId,
    caller: SEQUENCE_CALLER,
    signal: level.signal,
    ...(level.options.turnId !== undefined ? { turnId: level.options.turnId } : {}),
    ...(level.options.onLeave ? { onLeave: level.options.onLeave } : {}),
  };
  const { outcome, callOutcome } = await level.options.toolApi.run(context, tool, args);
  const kept = level.budget.keepResult(outcome.value);
  return fromOutcome(call, index, outcome.ok ? { ok: true, value: kept } : { ...outcome, value: kept }, callOutcome);
}

function fromOutcome(call: SequenceCall, index: number, outcome: ToolOutcome, callOutcome: CallOutcome): CallResult {
  if (outcome.ok)
    return {
      report: { ...identify(call, index), status: 'ok', result: outcome.value },
      slot: { ok: true, result: outcome.value },
    };
  // A refusal by the CanUse gate (unauthorized) or the person (denied) is reported as refused.
  const status = outcome.error.reason === 'unauthorized' || outcome.error.reason === 'denied' ? 'refused' : 'failed';
  const result = failed(call, index, outcome.error, status);
  result.report.outcome = callOutcome;
  if (outcome.value !== undefined) {
    result.report.result = outcome.value;
    result.slot.result = outcome.value;
  }
  return result;
}

async function runNested(
  level: Level,
  options: { call: SequenceCall; index: number; args: Record<string, unknown>; target: string },
): Promise<CallResult> {
  const { call, index, target } = options;
  if (level.stack.includes(target)) {
    return failed(call, index, {
      reason: 'failed',
      detail: `sequences call each other in a cycle: ${[...level.stack, target].join(' → ')}`,
    });
  }
  if (level.stack.length > level.maxCallDepth) {
    return failed(call, index, {
      reason: 'failed',
      detail: `the call chain ${[...level.stack, target].join(' → ')} is deeper than ${level.maxCallDepth} sequence calls`,
    });
  }
  const sequence = await level.options.loadSequence(target);
  // Stopped while loading: the nested run never starts (and adds nothing to the report).
  if (level.signal.aborted) return skipped(level, call, index);
  if (!sequence)
    return failed(call, index, {
      reason: 'not_found',
      detail: `there is no sequence named '${target}'`,
      hint: 'Call seq_list to see the saved sequences.',
    });
  const { report, slots } = await runLevel({ ...level, stack: [...level.stack, target] }, sequence, options.args);
  // The nested run's own slots (not its input) become this call's result: `inner.result.slots.reading.ok`.
  const result = { slots: Object.fromEntries([...slots].filter(([name]) => name !== INPUT_SLOT)) };
  if (report.ok)
    return { report: { ...identify(call, index), status: 'ok', result, report }, slot: { ok: true, result } };
  const error: ToolErrorData = {
    reason: 'failed',
    detail: `the sequence ${target} did not succeed${report.stopped ? ` (${report.stopped})` : ''}; see its report`,
  };
  return {
    report: { ...identify(call, index), status: 'failed', result, error, report },
    slot: { ok: false, result, error },
  };
}
