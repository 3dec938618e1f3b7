import type { AgentEvent, BatchMode, TurnEndReason } from '../../core/events/agent-event.ts';
import type { ConversationMessage } from '../../core/models/conversation-message.ts';
import type { ToolErrorData } from '../../core/tools/tool-error.ts';
import type { SqliteConversationStore } from './sqlite-conversation-store.ts';
import type { UnplacedRows } from './orphaned-rows.ts';

/** One tool call of a turn as the journal holds it; `ok` is null when its end was never journaled. */
export interface ExportedCall {
  callId: string;
  name: string;
  args: Record<string, unknown>;
  step: number;
  batchId: string;
  index: number;
  mode: BatchMode;
  ok: boolean | null;
  result?: unknown;
  error?: ToolErrorData;
  queuedMs?: number;
  runMs?: number;
  startedAt?: number;
  endedAt?: number;
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
      turns: turnsOf(store.loadEvents(summary.id)),
    })),
    ...(kept ? { unplaced } : {}),
  };
}

function turnsOf(events: AgentEvent[]): ExportedTurn[] {
  const turns = new Map<string, ExportedTurn>();
  const calls = new Map<string, ExportedCall>();
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
    if (event.type === 'batch/start') {
      for (const call of event.calls) {
        const exported: ExportedCall = {
          callId: call.callId,
          name: call.name,
          args: call.args,
          step: event.step,
          batchId: event.batchId,
          index: call.index,
          mode: event.mode,
          ok: null,
        };
        calls.set(call.callId, exported);
        turn.calls.push(exported);
      }
    } else if (event.type === 'tool/end') {
      const call = calls.get(event.callId);
      if (call === undefined) continue;
      call.ok = event.ok;
      if (event.result !== undefined) call.result = event.result;
      if (event.error !== undefined) call.error = event.error;
      call.queuedMs = event.queuedMs;
      call.runMs = event.runMs;
      call.startedAt = event.startedAt;
      call.endedAt = event.endedAt;
    } else if (event.type === 'turn/end') {
      turn.endedAt = event.at;
      turn.reason = event.reason;
      if (event.error !== undefined) turn.error = event.error;
    }
  }
  return [...turns.values()];
}
