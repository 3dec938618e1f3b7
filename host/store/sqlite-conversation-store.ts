import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { ConversationStore, RequestParts } from '../../core/agent/conversation-store.ts';
import type { AgentEvent, AgentEventType } from '../../core/events/agent-event.ts';
import type { ConversationMessage } from '../../core/models/conversation-message.ts';
import { agentEventSchema, type ConversationSummary } from '../contract/api-contract.ts';
import { conversationMessageSchema } from '../../core/models/conversation-message.ts';
import { parseStoredJson, reportInvalidRow, toStoredJson, type InvalidRowHandler } from './parse-stored-row.ts';
import { StoreError } from './store-error.ts';
import { checkedWrite } from './checked-write.ts';

export interface SqliteConversationStoreOptions {
  /** An open store (openDatabase); the caller owns and closes it. */
  db: Database.Database;
  /** Milliseconds since the epoch; injectable so tests are deterministic. */
  now?: () => number;
  newId?: () => string;
  /** Given: rows that fail validation are skipped and reported here. Absent: they throw StoreError `invalid_row`. */
  onInvalidRow?: InvalidRowHandler;
}

type SummaryRow = { id: string; title: string; createdAt: number; updatedAt: number };
type PayloadRow = { seq: number; payload: string };

const SUMMARY_COLUMNS = 'id, title, created_at AS createdAt, updated_at AS updatedAt';

/**
 * Conversations, their messages and the event journal in SQLite. Every append is one statement
 * (its sequence number computed inside it), so a killed process loses at most the row being written.
 * `updatedAt` is the time of the latest message or event (a rename does not move a conversation up).
 */
export class SqliteConversationStore implements ConversationStore {
  private readonly now: () => number;
  private readonly newId: () => string;
  private readonly onInvalidRow: InvalidRowHandler | undefined;
  private readonly db: Database.Database;
  private readonly statements;
  /** Hashes of request parts this store has written (or found written), so a turn costs no write for them. */
  private readonly recordedParts = new Set<string>();
  private insertRequestPart:
    Database.Statement<{ hash: string; kind: string; body: string; createdAt: number }> | undefined;

  constructor(options: SqliteConversationStoreOptions) {
    const { db } = options;
    this.db = db;
    this.now = options.now ?? Date.now;
    this.newId = options.newId ?? randomUUID;
    this.onInvalidRow = options.onInvalidRow;
    this.statements = {
      insertConversation: db.prepare<[string, string, number, number]>(
        'INSERT OR IGNORE INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)',
      ),
      summary: db.prepare<[string], SummaryRow>(`SELECT ${SUMMARY_COLUMNS} FROM conversations WHERE id = ?`),
      list: db.prepare<[], SummaryRow>(
        `SELECT ${SUMMARY_COLUMNS} FROM conversations ORDER BY updated_at DESC, created_at DESC, rowid DESC`,
      ),
      rename: db.prepare<[string, string]>('UPDATE conversations SET title = ? WHERE id = ?'),
      deleteConversation: db.prepare<[string]>('DELETE FROM conversations WHERE id = ?'),
      deleteEvents: db.prepare<[string]>('DELETE FROM events WHERE conversation_id = ?'),
      // The title, or the text a person or the assistant wrote (tool results and JSON keys are not searched).
      search: db.prepare<{ pattern: string }, SummaryRow>(
        `SELECT ${SUMMARY_COLUMNS} FROM conversations AS c
         WHERE c.title LIKE @pattern ESCAPE '\\'
            OR EXISTS (SELECT 1 FROM messages AS m WHERE m.conversation_id = c.id AND m.role IN ('user', 'assistant')
                       AND json_extract(m.payload, '$.text') LIKE @pattern ESCAPE '\\')
         ORDER BY c.updated_at DESC, c.created_at DESC, c.rowid DESC`,
      ),
      appendMessage: db.prepare<{ conversationId: string; role: string; payload: string; createdAt: number }>(
        `INSERT INTO messages (conversation_id, seq, role, payload, created_at)
         SELECT @conversationId, COALESCE(MAX(seq), 0) + 1, @role, @payload, @createdAt FROM messages WHERE conversation_id = @conversationId`,
      ),
      messages: db.prepare<[string], PayloadRow & { role: string }>(
        'SELECT seq, role, payload FROM messages WHERE conversation_id = ? ORDER BY seq',
      ),
      messagesAfter: db.prepare<[string, number], PayloadRow & { role: string }>(
        'SELECT seq, role, payload FROM messages WHERE conversation_id = ? AND seq > ? ORDER BY seq',
      ),
      lastMessageSeq: db.prepare<[string], { last: number | null }>(
        'SELECT MAX(seq) AS last FROM messages WHERE conversation_id = ?',
      ),
      appendEvent: db.prepare<
        { conversationId: string; turnId: string; type: string; at: number; payload: string },
        { seq: number }
      >(
        `INSERT INTO events (conversation_id, seq, turn_id, type, at, payload)
         SELECT @conversationId, COALESCE(MAX(seq), 0) + 1, @turnId, @type, @at, @payload FROM events WHERE conversation_id = @conversationId
         RETURNING seq`,
      ),
      events: db.prepare<[string], PayloadRow>(
        'SELECT seq, payload FROM events WHERE conversation_id = ? ORDER BY seq',
      ),
      turnStartsBefore: db.prepare<[string, number, number], number>(
        "SELECT seq FROM events WHERE conversation_id = ? AND type = 'turn/start' AND seq < ? ORDER BY seq DESC LIMIT ?",
      ),
      eventsBetween: db.prepare<[string, number, number], PayloadRow>(
        'SELECT seq, payload FROM events WHERE conversation_id = ? AND seq >= ? AND seq < ? ORDER BY seq',
      ),
      anyEventBefore: db.prepare<[string, number], number>(
        'SELECT 1 FROM events WHERE conversation_id = ? AND seq < ? LIMIT 1',
      ),
      batchesBefore: db.prepare<[string, number], number>(
        "SELECT COUNT(*) FROM events WHERE conversation_id = ? AND type = 'batch/start' AND seq < ?",
      ),
      eventsOfType: db.prepare<[string, string], PayloadRow>(
        'SELECT seq, payload FROM events WHERE conversation_id = ? AND type = ? ORDER BY seq',
      ),
      turnEventsAfter: db.prepare<[string, string, number, number], PayloadRow>(
        'SELECT seq, payload FROM events WHERE turn_id = ? AND conversation_id = ? AND seq > ? ORDER BY seq LIMIT ?',
      ),
      turnStartsAfter: db.prepare<[number, number], { row: number; conversationId: string; turnId: string }>(
        `SELECT rowid AS row, conversation_id AS conversationId, turn_id AS turnId FROM events
         WHERE rowid > ? AND type = 'turn/start' ORDER BY rowid LIMIT ?`,
      ),
      lastEventRow: db.prepare<[], { last: number | null }>('SELECT MAX(rowid) AS last FROM events'),
      unfinishedTurns: db.prepare<[], { conversationId: string; turnId: string }>(
        `SELECT started.conversation_id AS conversationId, started.turn_id AS turnId FROM events AS started
         WHERE started.type = 'turn/start'
           AND NOT EXISTS (SELECT 1 FROM events AS ended WHERE ended.conversation_id = started.conversation_id AND ended.turn_id = started.turn_id AND ended.type = 'turn/end')
         ORDER BY started.conversation_id, started.seq`,
      ),
    };
  }

  /** Creates the conversation unless it exists. Every write throws a StoreError when the disk refuses it. */
  ensureConversation(conversationId: string, title: string): void {
    const now = this.now();
    checkedWrite({ db: this.db, what: `conversation ${conversationId}` }, () =>
      this.statements.insertConversation.run(conversationId, title, now, now),
    );
  }

  /** Creates a conversation with a fresh id and returns its summary. */
  createConversation(title: string): ConversationSummary {
    const id = this.newId();
    const now = this.now();
    const inserted = checkedWrite({ db: this.db, what: `conversation ${id}` }, () =>
      this.statements.insertConversation.run(id, title, now, now),
    );
    if (inserted.changes !== 1)
      throw new StoreError({ kind: 'invalid_value', detail: `conversation id ${id} is already taken` });
    return { id, title, createdAt: now, updatedAt: now };
  }

  getConversation(conversationId: string): ConversationSummary | undefined {
    return this.statements.summary.get(conversationId);
  }

  /** Every conversation, the most recently active first. */
  listConversations(): ConversationSummary[] {
    return this.statements.list.all();
  }

  /** Renames a conversation and returns its summary; StoreError `not_found` for an unknown id. */
  renameConversation(conversationId: string, title: string): ConversationSummary {
    checkedWrite({ db: this.db, what: `the title of conversation ${conversationId}` }, () =>
      this.statements.rename.run(title, conversationId),
    );
    const summary = this.getConversation(conversationId);
    if (summary === undefined) throw unknownConversation(conversationId);
    return summary;
  }

  /**
   * Deletes a conversation with its messages and its journal, in one transaction; false when there
   * was none. The caller makes sure no turn is running in it.
   */
  deleteConversation(conversationId: string): boolean {
    const remove = this.db.transaction((id: string) => {
      const events = this.statements.deleteEvents.run(id).changes;
      const rows = this.statements.deleteConversation.run(id).changes;
      return rows > 0 || events > 0;
    });
    return remove(conversationId);
  }

  /** Conversations whose title or whose people's and assistant's text contain `query` (ASCII case-insensitive), newest first. */
  searchConversations(query: string): ConversationSummary[] {
    const pattern = `%${query.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    return this.statements.search.all({ pattern });
  }

  loadMessages(conversationId: string): ConversationMessage[] {
    return this.parseMessages(conversationId, this.statements.messages.all(conversationId));
  }

  /** The messages after `afterSeq` and the last sequence number read (see ConversationStore). */
  loadMessagesAfter(conversationId: string, afterSeq: number): { messages: ConversationMessage[]; lastSeq: number } {
    const rows = this.statements.messagesAfter.all(conversationId, afterSeq);
    const last = rows.at(-1);
    if (last !== undefined) return { messages: this.parseMessages(conversationId, rows), lastSeq: last.seq };
    const stored = this.statements.lastMessageSeq.get(conversationId)?.last ?? 0;
    return { messages: [], lastSeq: Math.min(stored, afterSeq) };
  }

  /** Every message of a conversation with its sequence number (rows that do not validate are left out). */
  loadMessageRows(conversationId: string): { seq: number; message: ConversationMessage }[] {
    const rows = this.statements.messages.all(conversationId);
    const seqs: number[] = [];
    const messages = this.parseMessages(conversationId, rows, (seq) => seqs.push(seq));
    return messages.map((message, index) => ({ seq: seqs[index]!, message }));
  }

  private parseMessages(
    conversationId: string,
    rows: (PayloadRow & { role: string })[],
    onKept?: (seq: number) => void,
  ): ConversationMessage[] {
    const messages: ConversationMessage[] = [];
    for (const row of rows) {
      const key = `${conversationId}#${row.seq}`;
      const parsed = parseStoredJson({ schema: conversationMessageSchema, text: row.payload, table: 'messages', key });
      if (!parsed.ok) reportInvalidRow(parsed.report, this.onInvalidRow);
      else if (parsed.value.role !== row.role) {
        reportInvalidRow(
          { table: 'messages', key, detail: `role column says ${row.role}, payload says ${parsed.value.role}` },
          this.onInvalidRow,
        );
      } else {
        messages.push(parsed.value);
        onKept?.(row.seq);
      }
    }
    return messages;
  }

  /** Appends a message to a conversation that exists (StoreError `not_found` otherwise). */
  appendMessage(conversationId: string, message: ConversationMessage): void {
    const payload = toStoredJson(message, `the ${message.role} message`);
    try {
      checkedWrite({ db: this.db, what: `the ${message.role} message` }, () =>
        this.statements.appendMessage.run({ conversationId, role: message.role, payload, createdAt: this.now() }),
      );
    } catch (error) {
      if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY')
        throw unknownConversation(conversationId, error);
      throw error;
    }
  }

  /**
   * Journals one event and returns its sequence number within its conversation (1, 2, …); throws a
   * StoreError (`disk_full`, `read_only`, `write_failed`) when the event was not committed.
   */
  appendEvent(event: AgentEvent): number {
    const payload = toStoredJson(event, `the ${event.type} event`);
    const { conversationId, turnId, type } = event;
    // `.all()` steps the statement to its end, so a failed commit throws; `.get()` stops at the
    // returned row and lost the commit's SQLITE_FULL, reporting events that were never stored.
    const rows = checkedWrite({ db: this.db, what: `the ${event.type} event` }, () =>
      this.statements.appendEvent.all({ conversationId, turnId, type, at: Math.trunc(event.at), payload }),
    );
    const row = rows[0];
    if (row === undefined)
      throw new StoreError({ kind: 'invalid_value', detail: `the ${event.type} event was not journaled` });
    return row.seq;
  }

  /**
   * Keeps a request's system prompt and tool declarations under their hashes, each once (a turn
   * records them once; most turns send the same ones). StoreError when the disk refuses.
   */
  recordRequestParts(parts: RequestParts): void {
    const createdAt = this.now();
    const rows = [
      { hash: parts.systemPromptHash, kind: 'system', body: parts.system, createdAt },
      { hash: parts.toolsHash, kind: 'tools', body: parts.toolsJson, createdAt },
    ].filter((row) => !this.recordedParts.has(row.hash));
    if (rows.length === 0) return;
    // Prepared when first used: a store opened read-only on an older schema has no such table.
    this.insertRequestPart ??= this.db.prepare(
      'INSERT OR IGNORE INTO request_parts (hash, kind, body, created_at) VALUES (@hash, @kind, @body, @createdAt)',
    );
    const insert = this.insertRequestPart;
    checkedWrite({ db: this.db, what: 'the prompt and tools of a request' }, () =>
      this.db.transaction(() => {
        for (const row of rows) insert.run(row);
      })(),
    );
    if (this.recordedParts.size > 1000) this.recordedParts.clear();
    for (const row of rows) this.recordedParts.add(row.hash);
  }

  /** Turns whose `turn/start` has no `turn/end` in the journal: the process stopped during them. */
  unfinishedTurns(): { conversationId: string; turnId: string }[] {
    return this.statements.unfinishedTurns.all();
  }

  loadEvents(conversationId: string): AgentEvent[] {
    return this.parseEvents(conversationId, this.statements.events.all(conversationId));
  }

  /**
   * One turn's events journaled after sequence number `afterSeq`, at most `limit`, each with its
   * number: how a host follows a turn another process is running in the same store.
   */
  loadTurnEventsAfter(options: {
    conversationId: string;
    turnId: string;
    afterSeq: number;
    limit: number;
  }): { seq: number; event: AgentEvent }[] {
    const rows = this.statements.turnEventsAfter.all(
      options.turnId,
      options.conversationId,
      options.afterSeq,
      options.limit,
    );
    // One row at a time, so each event keeps its own number when an unreadable row is skipped.
    return rows.flatMap((row) =>
      this.parseEvents(options.conversationId, [row]).map((event) => ({ seq: row.seq, event })),
    );
  }

  /**
   * The turns started after journal row `afterRow` (by any process on the file), oldest first, at
   * most `limit`, each with its row: how a host finds turns another process runs in the same store.
   */
  turnStartsAfter(afterRow: number, limit: number): { row: number; conversationId: string; turnId: string }[] {
    return this.statements.turnStartsAfter.all(afterRow, limit);
  }

  /** The journal's last row now (0 when empty): a host follows only turns started after it. */
  lastEventRow(): number {
    return this.statements.lastEventRow.get()?.last ?? 0;
  }

  /**
   * One page of the journal: the events of the last `turns` turns that begin before `before` (the
   * whole journal's end when absent), in order; `before` to ask for the page older than it (absent
   * when there is none); and how many batches come before it (so the window numbers them right).
   */
  loadEventsPage(
    conversationId: string,
    page: { turns: number; before?: number },
  ): { events: AgentEvent[]; before?: number; batchesBefore: number } {
    const end = page.before ?? Number.MAX_SAFE_INTEGER;
    const starts = this.statements.turnStartsBefore.pluck().all(conversationId, end, page.turns);
    const from = starts.length > 0 ? Math.min(...starts) : 0;
    const events = this.parseEvents(conversationId, this.statements.eventsBetween.all(conversationId, from, end));
    const older = from > 0 && this.statements.anyEventBefore.pluck().get(conversationId, from) !== undefined;
    return {
      events,
      ...(older ? { before: from } : {}),
      batchesBefore: this.statements.batchesBefore.pluck().get(conversationId, from) ?? 0,
    };
  }

  /** The journaled events of one type, in order (e.g. `tool/end` for the timings of every call). */
  loadEventsOfType<T extends AgentEventType>(conversationId: string, type: T): Array<Extract<AgentEvent, { type: T }>> {
    const events = this.parseEvents(conversationId, this.statements.eventsOfType.all(conversationId, type));
    return events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type);
  }

  /** Every `request/header` of a conversation: tool order and hashes of what each request sent. */
  loadRequestHeaders(conversationId: string): Array<Extract<AgentEvent, { type: 'request/header' }>> {
    return this.loadEventsOfType(conversationId, 'request/header');
  }

  private parseEvents(conversationId: string, rows: PayloadRow[]): AgentEvent[] {
    const events: AgentEvent[] = [];
    for (const row of rows) {
      const parsed = parseStoredJson({
        schema: agentEventSchema,
        text: row.payload,
        table: 'events',
        key: `${conversationId}#${row.seq}`,
      });
      if (parsed.ok) events.push(parsed.value);
      else reportInvalidRow(parsed.report, this.onInvalidRow);
    }
    return events;
  }
}

function unknownConversation(conversationId: string, cause?: unknown): StoreError {
  return new StoreError({ kind: 'not_found', detail: `no conversation has the id ${conversationId}` }, { cause });
}
