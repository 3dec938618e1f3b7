import type Database from 'better-sqlite3';
import { agentEventSchema, type AgentEvent } from '../../core/events/agent-event.ts';
import { conversationMessageSchema, type ConversationMessage } from '../../core/models/conversation-message.ts';
import { parseStoredJson, reportInvalidRow, type InvalidRowHandler } from './parse-stored-row.ts';

/** Events of a turn whose `turn/start` the journal does not hold (deleted, or the journal edited). */
const WITHOUT_TURN_START = `NOT EXISTS (SELECT 1 FROM events AS started
  WHERE started.conversation_id = events.conversation_id AND started.turn_id = events.turn_id AND started.type = 'turn/start')`;

/**
 * A `tool/start` or `tool/end` whose call its turn never declared: no `batch/start` of its batch in
 * its turn lists the call, and no early `tool/start` of it carries its arguments (a `batch/start`
 * the journal refused, or an edited journal). What ran is then not in the journal.
 */
const UNDECLARED_CALL = `events.type IN ('tool/start', 'tool/end')
  AND NOT EXISTS (SELECT 1 FROM events AS declared, json_each(declared.payload, '$.calls') AS declaredCall
    WHERE declared.turn_id = events.turn_id AND declared.conversation_id = events.conversation_id
      AND declared.type = 'batch/start'
      AND json_extract(declared.payload, '$.batchId') = json_extract(events.payload, '$.batchId')
      AND json_extract(declaredCall.value, '$.callId') = json_extract(events.payload, '$.callId'))
  AND NOT EXISTS (SELECT 1 FROM events AS early
    WHERE early.turn_id = events.turn_id AND early.conversation_id = events.conversation_id
      AND early.type = 'tool/start' AND json_extract(early.payload, '$.early') = 1
      AND json_type(early.payload, '$.args') = 'object'
      AND json_extract(early.payload, '$.batchId') = json_extract(events.payload, '$.batchId')
      AND json_extract(early.payload, '$.callId') = json_extract(events.payload, '$.callId'))`;

/** Why an event has no place: its conversation is gone, its turn has no `turn/start`, or its call was never declared. */
export type UnplacedWhy = 'no_conversation' | 'no_turn_start' | 'no_batch_start';

/** Turns that have events but no `turn/start`, with how many events each has, in journal order. */
export function turnsWithoutStart(db: Database.Database): { conversationId: string; turnId: string; events: number }[] {
  return db
    .prepare<[], { conversationId: string; turnId: string; events: number }>(
      `SELECT conversation_id AS conversationId, turn_id AS turnId, count(*) AS events FROM events
       WHERE ${WITHOUT_TURN_START}
       GROUP BY conversation_id, turn_id ORDER BY conversation_id, min(seq)`,
    )
    .all();
}

/** Stored rows an export cannot place in a conversation, or in one of its turns, kept rather than dropped. */
export interface UnplacedRows {
  /** Messages whose conversation does not exist. */
  messages: { conversationId: string; seq: number; message: ConversationMessage }[];
  /**
   * Events whose conversation does not exist (`no_conversation`), whose turn has no `turn/start`
   * (`no_turn_start`), or a call's `tool/start`/`tool/end` that no `batch/start` of its turn declares (`no_batch_start`).
   */
  events: { conversationId: string; seq: number; why: UnplacedWhy; event: AgentEvent }[];
}

/**
 * The messages and events of the store (or of one conversation id) that belong to no conversation,
 * or to no turn of one, and the events of calls their turn never declared, in conversation and sequence order. Rows that do not validate go to
 * `onInvalidRow`, as everywhere else in the store.
 */
export function findUnplacedRows(options: {
  db: Database.Database;
  conversationId?: string;
  onInvalidRow?: InvalidRowHandler;
}): UnplacedRows {
  const { db } = options;
  const only = options.conversationId === undefined ? '' : 'AND conversation_id = @conversationId';
  const parameters = options.conversationId === undefined ? {} : { conversationId: options.conversationId };
  const noConversation = 'conversation_id NOT IN (SELECT id FROM conversations)';
  const messageRows = db
    .prepare<object, { conversationId: string; seq: number; role: string; payload: string }>(
      `SELECT conversation_id AS conversationId, seq, role, payload FROM messages WHERE ${noConversation} ${only}
       ORDER BY conversation_id, seq`,
    )
    .all(parameters);
  const eventRows = db
    .prepare<object, { conversationId: string; seq: number; why: UnplacedWhy; payload: string }>(
      `SELECT conversation_id AS conversationId, seq, payload,
         CASE WHEN ${noConversation} THEN 'no_conversation' WHEN ${WITHOUT_TURN_START} THEN 'no_turn_start'
           ELSE 'no_batch_start' END AS why
       FROM events
       WHERE (${noConversation} OR ${WITHOUT_TURN_START} OR (${UNDECLARED_CALL})) ${only}
       ORDER BY conversation_id, seq`,
    )
    .all(parameters);
  const unplaced: UnplacedRows = { messages: [], events: [] };
  for (const row of messageRows) {
    const key = `${row.conversationId}#${row.seq}`;
    const parsed = parseStoredJson({ schema: conversationMessageSchema, text: row.payload, table: 'messages', key });
    if (parsed.ok) unplaced.messages.push({ conversationId: row.conversationId, seq: row.seq, message: parsed.value });
    else reportInvalidRow(parsed.report, options.onInvalidRow);
  }
  for (const row of eventRows) {
    const key = `${row.conversationId}#${row.seq}`;
    const parsed = parseStoredJson({ schema: agentEventSchema, text: row.payload, table: 'events', key });
    if (!parsed.ok) reportInvalidRow(parsed.report, options.onInvalidRow);
    else
      unplaced.events.push({
        conversationId: row.conversationId,
        seq: row.seq,
        why: row.why,
        event: parsed.value,
      });
  }
  return unplaced;
}
