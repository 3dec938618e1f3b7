import type { AgentEvent, BatchMode } from './agent-event.ts';
import type { CallOutcome } from '../tools/call-outcome.ts';
import type { ToolErrorData } from '../tools/tool-error.ts';

/** What the read-back after a Stop found on the device a call addressed. */
export interface StateAfterStop {
  deviceId: string;
  tool: string;
  /** The part of the device read (a relay's channel), when not the whole. */
  args?: Record<string, unknown>;
  result?: unknown;
  error?: ToolErrorData;
}

/** `interrupted`: the turn ended (aborted, error) before this call reported its end. */
export type CallStatus = 'queued' | 'running' | 'done' | 'interrupted';

/**
 * One call, as every reader sees it: declared by `batch/start` (or an early `tool/start`), started
 * by `tool/start`, finished by `tool/end`, read again by `device/state` after a Stop.
 */
export interface CallRecord {
  index: number;
  callId: string;
  name: string;
  /** What runs: the model's arguments, or the person's edit of them (then `modelArgs` holds the model's). */
  args: Record<string, unknown>;
  /** What the model asked, when the person edited the arguments before allowing the call. */
  modelArgs?: Record<string, unknown>;
  status: CallStatus;
  /** It started while the reply was still streaming. */
  early?: true;
  /** When `tool/start` was seen (a live running bar until `tool/end` brings exact timings). */
  runningSince?: number;
  /** While a person is being asked whether it may run: since when (from `approval/request` to `approval/end`). */
  askingSince?: number;
  /** While it runs, what its tool last said of its progress (`tool/progress`, live only). */
  progress?: { progress: number; total?: number; message?: string };
  ok?: boolean;
  /** What is known of the call's effect (absent in journals written before it existed). */
  outcome?: CallOutcome;
  /** What the call reaches when it is not a device (`the MCP server mcp-x`), for its outcome's words. */
  reaches?: string;
  error?: ToolErrorData;
  result?: unknown;
  queuedMs?: number;
  /** From the call's start to its end, the person's approval wait included (see approvalMs). */
  runMs?: number;
  /** How much of runMs the call waited for the person. */
  approvalMs?: number;
  startedAt?: number;
  endedAt?: number;
  /** The device read again after a Stop, when this call's outcome was unknown. */
  stateAfterStop?: StateAfterStop;
}

/** One batch: its calls in index order, its mode once the reply ended, and its totals once it ended. */
export interface BatchRecord {
  id: string;
  conversationId: string;
  turnId: string;
  step: number;
  /** Position among the conversation's batches, from 1 (`base` + its place among those folded). */
  sequence: number;
  /** When the batch began (`batch/open`; `batch/start` in journals without it). */
  openedAt: number;
  /** When the reply ended and the mode was decided (`batch/start`); absent while the reply streams. */
  startedAt?: number;
  /** Absent until `batch/start` (the reply still streams). */
  mode?: BatchMode;
  reason?: string;
  calls: CallRecord[];
  endedAt?: number;
  wallMs?: number;
  executed?: number;
  interrupted?: boolean;
}

/** Batches by id and, per conversation, their ids in the order they began. */
export interface CallRecords {
  batches: Record<string, BatchRecord>;
  batchOrder: Record<string, string[]>;
}

export const emptyCallRecords: CallRecords = { batches: {}, batchOrder: {} };

/**
 * Pure: the call records after `events`, in order (the one fold the window, `ask`, `export` and the
 * start-up repair share). The input is never changed: the containers are copied once per call, and
 * a batch or call that changes is a new object, so unchanged ones keep their identity. Returns the
 * input itself when nothing changed. `batchesBefore` numbers the batches of a journal read from the
 * middle (its first batch is `batchesBefore + 1`).
 */
export function foldCallRecords(
  records: CallRecords,
  events: readonly AgentEvent[],
  options: { batchesBefore?: Record<string, number> } = {},
): CallRecords {
  const draft: CallRecords = { batches: { ...records.batches }, batchOrder: { ...records.batchOrder } };
  let changed = false;
  for (const event of events) if (foldOne(draft, event, options.batchesBefore)) changed = true;
  return changed ? draft : records;
}

/** The batches of one turn, in the order they began. */
export function batchesOfTurn(records: CallRecords, conversationId: string, turnId: string): BatchRecord[] {
  return (records.batchOrder[conversationId] ?? [])
    .map((id) => records.batches[id])
    .filter((batch): batch is BatchRecord => batch?.turnId === turnId);
}

/** Folds one event into the draft (its containers are the caller's copies); true when it changed something. */
function foldOne(draft: CallRecords, event: AgentEvent, batchesBefore: Record<string, number> | undefined): boolean {
  switch (event.type) {
    case 'batch/open':
      if (draft.batches[event.batchId]) return false;
      openBatch(draft, event, batchesBefore);
      return true;
    case 'batch/start': {
      const batch = draft.batches[event.batchId] ?? openBatch(draft, event, batchesBefore);
      const known = new Map(batch.calls.map((call) => [call.callId, call]));
      const calls = event.calls.map((declared): CallRecord => {
        const before = known.get(declared.callId);
        known.delete(declared.callId);
        return before
          ? { ...before, index: declared.index, name: declared.name, args: declared.args }
          : { ...declared, status: 'queued' };
      });
      draft.batches[batch.id] = {
        ...batch,
        step: event.step,
        startedAt: event.at,
        mode: event.mode,
        reason: event.reason,
        calls: [...calls, ...known.values()].sort(byIndex),
      };
      return true;
    }
    case 'tool/start':
      return updateCall(draft, event, (call) => {
        if (call.status === 'done') return call;
        // The person's edit, after their approval: the call was already running.
        if (event.modelArgs !== undefined && event.args !== undefined)
          return { ...call, args: event.args, modelArgs: event.modelArgs };
        const started: CallRecord = { ...call, status: 'running', runningSince: event.at };
        if (event.early) started.early = true;
        if (event.args !== undefined && Object.keys(call.args).length === 0) started.args = event.args;
        return started;
      });
    case 'tool/end':
      return updateCall(draft, event, (call) => finishCall(call, event));
    case 'tool/progress': {
      // Only a call the batch holds and that runs: progress declares no call of its own.
      const running = draft.batches[event.batchId]?.calls.find((call) => call.callId === event.callId);
      if (running?.status !== 'running') return false;
      const { progress, total, message } = event;
      return updateCall(draft, { ...event, index: running.index, name: running.name }, (call) => ({
        ...call,
        progress: {
          progress,
          ...(total !== undefined ? { total } : {}),
          ...(message !== undefined ? { message } : {}),
        },
      }));
    }
    case 'approval/request':
      return updateCall(draft, event, (call) => (call.status === 'done' ? call : { ...call, askingSince: event.at }));
    case 'approval/end': {
      // Only a call the batch already holds: an answer declares no call of its own.
      const asked = draft.batches[event.batchId]?.calls.find((call) => call.callId === event.callId);
      if (asked?.askingSince === undefined) return false;
      return updateCall(draft, { ...event, index: asked.index, name: asked.name }, (call) => {
        const { askingSince: _answered, ...rest } = call;
        return rest;
      });
    }
    case 'batch/end': {
      const batch = draft.batches[event.batchId];
      if (!batch) return false;
      draft.batches[batch.id] = { ...batch, endedAt: event.at, wallMs: event.wallMs, executed: event.executed };
      return true;
    }
    case 'device/state':
      return attachStateAfterStop(draft, event);
    case 'turn/end':
      return interruptOpenBatches(draft, event);
    default:
      return false;
  }
}

function openBatch(
  draft: CallRecords,
  event: Extract<AgentEvent, { type: 'batch/open' | 'batch/start' }>,
  batchesBefore: Record<string, number> | undefined,
): BatchRecord {
  const order = draft.batchOrder[event.conversationId] ?? [];
  const batch: BatchRecord = {
    id: event.batchId,
    conversationId: event.conversationId,
    turnId: event.turnId,
    step: event.step,
    sequence: (batchesBefore?.[event.conversationId] ?? 0) + order.length + 1,
    openedAt: event.at,
    calls: [],
  };
  draft.batches[batch.id] = batch;
  draft.batchOrder[event.conversationId] = [...order, batch.id];
  return batch;
}

/**
 * Finds the call by id (a call no event declared yet is added in index order, with the arguments an
 * early `tool/start` carries); an event of a batch never opened has no record to land in.
 */
function updateCall(
  draft: CallRecords,
  event: Pick<Extract<AgentEvent, { type: 'tool/start' }>, 'batchId' | 'callId' | 'index' | 'name'>,
  change: (call: CallRecord) => CallRecord,
): boolean {
  const batch = draft.batches[event.batchId];
  if (!batch) return false;
  const position = batch.calls.findIndex((call) => call.callId === event.callId);
  let calls: CallRecord[];
  if (position === -1) {
    const added = change({ index: event.index, callId: event.callId, name: event.name, args: {}, status: 'queued' });
    calls = [...batch.calls, added].sort(byIndex);
  } else {
    const before = batch.calls[position] as CallRecord;
    const after = change(before);
    if (after === before) return false;
    calls = batch.calls.slice();
    calls[position] = after;
  }
  draft.batches[batch.id] = { ...batch, calls };
  return true;
}

function finishCall(call: CallRecord, event: Extract<AgentEvent, { type: 'tool/end' }>): CallRecord {
  const { askingSince: _asked, progress: _progress, ...rest } = call;
  const done: CallRecord = {
    ...rest,
    status: 'done',
    ok: event.ok,
    queuedMs: event.queuedMs,
    runMs: event.runMs,
    startedAt: event.startedAt,
    endedAt: event.endedAt,
  };
  if (event.error !== undefined) done.error = event.error;
  if (event.result !== undefined) done.result = event.result;
  if (event.outcome !== undefined) done.outcome = event.outcome;
  if (event.reaches !== undefined) done.reaches = event.reaches;
  if (event.approvalMs !== undefined) done.approvalMs = event.approvalMs;
  return done;
}

/** Puts what the read-back found on every call of the turn it concerns. */
function attachStateAfterStop(draft: CallRecords, event: Extract<AgentEvent, { type: 'device/state' }>): boolean {
  const state: StateAfterStop = { deviceId: event.deviceId, tool: event.tool };
  if (event.args !== undefined) state.args = event.args;
  if (event.result !== undefined) state.result = event.result;
  if (event.error !== undefined) state.error = event.error;
  const callIds = new Set(event.callIds);
  let changed = false;
  for (const id of draft.batchOrder[event.conversationId] ?? []) {
    const batch = draft.batches[id];
    if (!batch || batch.turnId !== event.turnId || !batch.calls.some((call) => callIds.has(call.callId))) continue;
    const calls = batch.calls.map((call) => (callIds.has(call.callId) ? { ...call, stateAfterStop: state } : call));
    draft.batches[id] = { ...batch, calls };
    changed = true;
  }
  return changed;
}

/** A turn that ended leaves no batch open: calls that never reported their end are interrupted. */
function interruptOpenBatches(draft: CallRecords, event: Extract<AgentEvent, { type: 'turn/end' }>): boolean {
  let changed = false;
  for (const id of draft.batchOrder[event.conversationId] ?? []) {
    const batch = draft.batches[id];
    if (!batch || batch.turnId !== event.turnId || batch.endedAt !== undefined) continue;
    const calls = batch.calls.map((call): CallRecord =>
      call.status === 'done' ? call : { ...call, status: 'interrupted' },
    );
    draft.batches[id] = { ...batch, calls, endedAt: event.at, interrupted: true };
    changed = true;
  }
  return changed;
}

function byIndex(left: { index: number }, right: { index: number }): number {
  return left.index - right.index;
}
