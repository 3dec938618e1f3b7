import type { HostAgentEvent } from '../../host/contract/api-contract.ts';
import { dropConversationEntries } from './drop-conversation-entries.ts';

type BatchStartEvent = Extract<HostAgentEvent, { type: 'batch/start' }>;
type ToolEndEvent = Extract<HostAgentEvent, { type: 'tool/end' }>;

/** A tool failure as the batch panel shows it (the contract's tool error fields). */
export type ToolErrorView = NonNullable<ToolEndEvent['error']>;

type DeviceStateEvent = Extract<HostAgentEvent, { type: 'device/state' }>;

/** What the read-back after a Stop found on the device a call addressed. */
export interface StateAfterStop {
  deviceId: string;
  tool: string;
  result?: unknown;
  error?: ToolErrorView;
}

/** `interrupted`: the turn ended (aborted, error) before this call reported its end. */
export type ToolRowStatus = 'queued' | 'running' | 'done' | 'interrupted';

/** One call of a batch: declared by batch/start, started by tool/start, finished by tool/end. */
export interface ToolRowView {
  index: number;
  callId: string;
  name: string;
  args: Record<string, unknown>;
  status: ToolRowStatus;
  /** When tool/start was seen (live running bar until tool/end brings exact timings). */
  runningSince?: number;
  ok?: boolean;
  /** What is known of the call's effect (absent in journals written before it existed). */
  outcome?: NonNullable<ToolEndEvent['outcome']>;
  error?: ToolErrorView;
  result?: unknown;
  queuedMs?: number;
  /** From the call's start to its end, the person's approval wait included (see approvalMs). */
  runMs?: number;
  /** How much of runMs the call waited for the person. */
  approvalMs?: number;
  /** The device read again after a Stop, when this call's outcome was unknown. */
  stateAfterStop?: StateAfterStop;
  startedAt?: number;
  endedAt?: number;
}

/** One batch: its mode and reason, its calls in index order, and its totals once it ended. */
export interface BatchView {
  id: string;
  conversationId: string;
  turnId: string;
  step: number;
  /** Position among the conversation's batches, from 1: orders channel outputs across batches. */
  sequence: number;
  mode: BatchStartEvent['mode'];
  reason: string;
  startedAt: number;
  rows: ToolRowView[];
  endedAt?: number;
  wallMs?: number;
  executed?: number;
  interrupted?: boolean;
}

/** The batches data: batches by id and, per conversation, their ids in start order. */
export interface BatchesData {
  batches: Record<string, BatchView>;
  batchOrder: Record<string, string[]>;
}

export const emptyBatchesData: BatchesData = { batches: {}, batchOrder: {} };

/** Pure: the batches data after one host event. Rows stay in index order whatever order events arrive in. */
export function reduceBatches(data: BatchesData, event: HostAgentEvent): BatchesData {
  switch (event.type) {
    case 'batch/start':
      return startBatch(data, event);
    case 'tool/start':
      return updateBatch(data, event.batchId, (batch) =>
        updateRow(batch, { index: event.index, callId: event.callId, name: event.name }, (row) =>
          row.status === 'done' ? row : { ...row, status: 'running', runningSince: event.at },
        ),
      );
    case 'tool/end':
      return updateBatch(data, event.batchId, (batch) =>
        updateRow(batch, { index: event.index, callId: event.callId, name: event.name }, (row) =>
          finishRow(row, event),
        ),
      );
    case 'batch/end':
      return updateBatch(data, event.batchId, (batch) => ({
        ...batch,
        endedAt: event.at,
        wallMs: event.wallMs,
        executed: event.executed,
      }));
    case 'device/state':
      return attachStateAfterStop(data, event);
    case 'turn/end':
      return interruptOpenBatches(data, event);
    default:
      return data;
  }
}

/** Puts what the read-back found on every row of the conversation whose call it concerns. */
function attachStateAfterStop(data: BatchesData, event: DeviceStateEvent): BatchesData {
  const state: StateAfterStop = { deviceId: event.deviceId, tool: event.tool };
  if (event.result !== undefined) state.result = event.result;
  if (event.error !== undefined) state.error = event.error;
  const callIds = new Set(event.callIds);
  let batches = data.batches;
  for (const id of data.batchOrder[event.conversationId] ?? []) {
    const batch = batches[id];
    if (!batch || batch.turnId !== event.turnId || !batch.rows.some((row) => callIds.has(row.callId))) continue;
    const rows = batch.rows.map((row) => (callIds.has(row.callId) ? { ...row, stateAfterStop: state } : row));
    batches = { ...batches, [id]: { ...batch, rows } };
  }
  return batches === data.batches ? data : { ...data, batches };
}

/** Drops every batch of one conversation (before its journal is folded again). */
export function dropConversationBatches(data: BatchesData, conversationId: string): BatchesData {
  const kept = dropConversationEntries({ byId: data.batches, order: data.batchOrder }, conversationId);
  return kept ? { batches: kept.byId, batchOrder: kept.order } : data;
}

function startBatch(data: BatchesData, event: BatchStartEvent): BatchesData {
  const order = data.batchOrder[event.conversationId] ?? [];
  const known = order.includes(event.batchId);
  const rows = event.calls
    .map((call): ToolRowView => ({
      index: call.index,
      callId: call.callId,
      name: call.name,
      args: call.args,
      status: 'queued',
    }))
    .sort(byIndex);
  const batch: BatchView = {
    id: event.batchId,
    conversationId: event.conversationId,
    turnId: event.turnId,
    step: event.step,
    sequence: known ? order.indexOf(event.batchId) + 1 : order.length + 1,
    mode: event.mode,
    reason: event.reason,
    startedAt: event.at,
    rows,
  };
  return {
    batches: { ...data.batches, [batch.id]: batch },
    batchOrder: known ? data.batchOrder : { ...data.batchOrder, [event.conversationId]: [...order, batch.id] },
  };
}

function finishRow(row: ToolRowView, event: ToolEndEvent): ToolRowView {
  const done: ToolRowView = {
    ...row,
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
  if (event.approvalMs !== undefined) done.approvalMs = event.approvalMs;
  return done;
}

function updateBatch(data: BatchesData, batchId: string, change: (batch: BatchView) => BatchView): BatchesData {
  const batch = data.batches[batchId];
  // An event of a batch whose batch/start was never seen has no panel to land in.
  if (!batch) return data;
  return { ...data, batches: { ...data.batches, [batchId]: change(batch) } };
}

/** Finds the row by call id (else index); a call batch/start did not declare is inserted in index order. */
function updateRow(
  batch: BatchView,
  call: { index: number; callId: string; name: string },
  change: (row: ToolRowView) => ToolRowView,
): BatchView {
  const position = batch.rows.findIndex((row) => row.callId === call.callId);
  if (position !== -1) {
    const rows = batch.rows.slice();
    rows[position] = change(batch.rows[position] as ToolRowView);
    return { ...batch, rows };
  }
  const added = change({ index: call.index, callId: call.callId, name: call.name, args: {}, status: 'queued' });
  return { ...batch, rows: [...batch.rows, added].sort(byIndex) };
}

function interruptOpenBatches(data: BatchesData, event: Extract<HostAgentEvent, { type: 'turn/end' }>): BatchesData {
  let batches = data.batches;
  for (const id of data.batchOrder[event.conversationId] ?? []) {
    const batch = batches[id];
    if (!batch || batch.turnId !== event.turnId || batch.endedAt !== undefined) continue;
    const rows = batch.rows.map((row): ToolRowView =>
      row.status === 'done' ? row : { ...row, status: 'interrupted' },
    );
    batches = { ...batches, [id]: { ...batch, rows, endedAt: event.at, interrupted: true } };
  }
  return batches === data.batches ? data : { ...data, batches };
}

function byIndex(left: { index: number }, right: { index: number }): number {
  return left.index - right.index;
}
