import type { AgentEvent, BatchMode, TurnEndReason } from '../../core/events/agent-event.ts';
import {
  batchesOfTurn,
  emptyCallRecords,
  foldCallRecords,
  type BatchRecord,
  type CallRecord,
  type StateAfterStop,
} from '../../core/events/fold-call-records.ts';
import type { ConversationMessage } from '../../core/models/conversation-message.ts';
import type { CallOutcome } from '../../core/tools/call-outcome.ts';
import type { ToolErrorData } from '../../core/tools/tool-error.ts';
import type { SqliteConversationStore } from './sqlite-conversation-store.ts';
import type { UnplacedRows } from './orphaned-rows.ts';

/**
 * One tool call of a turn as the journal holds it (core's call record); `ok` is null when its end
 * was never journaled. Fields after `endedAt` were added later (absent when the journal lacks them).
 */
export interface ExportedCall {
  callId: string;
  name: string;
  args: Record<string, unknown>;
  step: number;
  batchId: string;
  index: number;
  /** The batch's mode; `serial` for calls that started while a reply streamed that never ended (one at a time). */
  mode: BatchMode;
  ok: boolean | null;
  result?: unknown;
  error?: ToolErrorData;
  queuedMs?: number;
  runMs?: number;
  startedAt?: number;
  endedAt?: number;
  /** What is known of the call's effect: done, failed, not_sent, unknown. */
  outcome?: CallOutcome;
  /** How much of runMs the call waited for the person's approval (absent when nobody was asked). */
  approvalMs?: number;
  /** It started while the model's reply was still streaming. */
  early?: true;
  /** After a Stop: what the device's own read action found (`device/state`), for a call that may have acted. */
  readBack?: StateAfterStop;
}

/** One turn: what the person asked, the model, when, how it ended (null: never ended) and its calls. */
export interface ExportedTurn {
  turnId: string;
  text: string;
  model: string;
  startedAt: number;
  endedAt: number | null;
  reason: TurnEndReason | null;
  error?: string;
  calls: ExportedCall[];
}

export interface ExportedConversation {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  messages: ConversationMessage[];
  turns: ExportedTurn[];
}

/** The `home-agent export` document (version 1: later versions only add fields). */
export interface ConversationExport {
  format: 'home-agent-export';
  version: 1;
  conversations: ExportedConversation[];
  /** Rows that belong to no conversation, or to no turn of one (findUnplacedRows); absent when there are none. */
  unplaced?: UnplacedRows;
}

/**
 * The conversations of a store (or the one given) with their messages, turns, calls, results and
 * timings, read from the journal. Deterministic: conversations by creation time then id, turns
 * and calls in journal order, keys in a fixed order — the same store always gives the same text.
 */
export function exportConversations(options: {
  store: SqliteConversationStore;
  conversationId?: string;
  /** What the store holds that no conversation or turn places: kept in the document, never dropped. */
  unplaced?: UnplacedRows;
}): ConversationExport {
  const { store } = options;
  const summaries =
    options.conversationId === undefined
      ? [...store.listConversations()].sort(
          (a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
        )
      : [store.getConversation(options.conversationId)].filter((summary) => summary !== undefined);
  const { unplaced } = options;
  const kept = unplaced !== undefined && unplaced.messages.length + unplaced.events.length > 0;
  return {
    format: 'home-agent-export',
    version: 1,
    conversations: summaries.map((summary) => ({
      id: summary.id,
      title: summary.title,
      createdAt: summary.createdAt,
      updatedAt: summary.updatedAt,
      messages: store.loadMessages(summary.id),
      turns: turnsOf(store.loadEvents(summary.id), summary.id),
    })),
    ...(kept ? { unplaced } : {}),
  };
}

function turnsOf(events: AgentEvent[], conversationId: string): ExportedTurn[] {
  const records = foldCallRecords(emptyCallRecords, events);
  const turns = new Map<string, ExportedTurn>();
  for (const event of events) {
    if (event.type === 'turn/start') {
      turns.set(event.turnId, {
        turnId: event.turnId,
        text: event.text,
        model: event.model,
        startedAt: event.at,
        endedAt: null,
        reason: null,
        calls: [],
      });
      continue;
    }
    const turn = turns.get(event.turnId);
    if (turn === undefined) continue; // an event of a turn whose start is not journaled has no turn to join
    if (event.type === 'turn/end') {
      turn.endedAt = event.at;
      turn.reason = event.reason;
      if (event.error !== undefined) turn.error = event.error;
    }
  }
  for (const turn of turns.values()) {
    for (const batch of batchesOfTurn(records, conversationId, turn.turnId))
      for (const call of batch.calls) turn.calls.push(exportedCall(batch, call));
  }
  return [...turns.values()];
}

/** A call record as `export` writes it, its keys in a fixed order. */
function exportedCall(batch: BatchRecord, call: CallRecord): ExportedCall {
  const ended = call.status === 'done';
  return {
    callId: call.callId,
    name: call.name,
    args: call.args,
    step: batch.step,
    batchId: batch.id,
    index: call.index,
    mode: batch.mode ?? 'serial',
    ok: ended ? (call.ok ?? null) : null,
    ...(call.result !== undefined ? { result: call.result } : {}),
    ...(call.error !== undefined ? { error: call.error } : {}),
    ...(ended ? { queuedMs: call.queuedMs, runMs: call.runMs, startedAt: call.startedAt, endedAt: call.endedAt } : {}),
    ...(call.outcome !== undefined ? { outcome: call.outcome } : {}),
    ...(call.approvalMs !== undefined ? { approvalMs: call.approvalMs } : {}),
    ...(call.early ? { early: true as const } : {}),
    ...(call.stateAfterStop !== undefined ? { readBack: call.stateAfterStop } : {}),
  };
}
