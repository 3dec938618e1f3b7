import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { CallAnswerer } from '../../core/agent/answer-dangling-calls.ts';
import { checkToolAnswers, type ToolAnswerProblem } from '../../core/agent/check-tool-answers.ts';
import { chainMessageHash, MESSAGES_HASH_START, requestHashOf } from '../../core/agent/request-hash.ts';
import { applyFit, type ContextFit } from '../../core/context/fit-history.ts';
import type { AgentEvent } from '../../core/events/agent-event.ts';
import type { ConversationMessage } from '../../core/models/conversation-message.ts';
import type { SqliteConversationStore } from './sqlite-conversation-store.ts';
import { findJournalGaps, type JournalGap } from './find-journal-gaps.ts';
import { findUnplacedRows, turnsWithoutStart, type UnplacedWhy } from './orphaned-rows.ts';
import type { InvalidRowHandler } from './parse-stored-row.ts';

type RequestHeader = Extract<AgentEvent, { type: 'request/header' }>;

/** A step whose recorded header the stored parts and messages do not rebuild, and how they differ. */
export interface StepMismatch {
  conversationId: string;
  turnId: string;
  step: number;
  differences: string[];
}

/** Rows of `table` whose foreign key names a `parent` row that does not exist, grouped by the key they name. */
export interface ForeignKeyProblem {
  table: string;
  parent: string;
  /** The row's foreign key columns and the values they name. */
  key: Record<string, unknown>;
  rows: number;
}

/** An event `export` cannot place (findUnplacedRows), named by where it is and, for a call's event, the call. */
export interface UnplacedEvent {
  conversationId: string;
  seq: number;
  turnId: string;
  type: string;
  callId?: string;
  name?: string;
  why: UnplacedWhy;
}

/** What `home-agent verify` found; `ok` only when every check holds (unverifiable steps do not fail it). */
export interface VerifyReport {
  ok: boolean;
  /** `PRAGMA integrity_check` lines other than `ok`. */
  integrity: string[];
  /** What `PRAGMA foreign_key_check` found (messages of a conversation deleted with foreign keys off). */
  foreignKeys: ForeignKeyProblem[];
  openTurns: { conversationId: string; turnId: string }[];
  /** Turns with events but no `turn/start`. */
  turnsWithoutStart: { conversationId: string; turnId: string; events: number }[];
  /** Messages no journal event records. */
  journalGaps: JournalGap[];
  /** Events export cannot place: of no conversation, of a turn without `turn/start`, of a call no `batch/start` declares. */
  unplacedEvents: UnplacedEvent[];
  unansweredCalls: (ToolAnswerProblem & { conversationId: string })[];
  steps: { verified: number; unverifiable: number; mismatched: StepMismatch[] };
}

const declaredToolsSchema = z.array(z.object({ name: z.string() }).loose());

/**
 * Checks a store without writing to it: SQLite's integrity and foreign key checks; every turn in the
 * journal opened and closed; every event placed in a conversation, a turn and (a call's) a declared
 * call — what ran is in the journal (findUnplacedRows); every message recorded by the journal (findJournalGaps); every assistant
 * tool call answered exactly once, right after it, in the messages; and the rebuild
 * check of seed 000 — every step's `request/header` rebuilt from the system prompt and tool
 * declarations stored under its hashes and from the messages it carried (the same hashes the
 * agent computed, core/agent/request-hash.ts). A step that fitted the history to the model's window
 * is rebuilt as it was sent: the same earlier turns left out and results shortened (core/context/fit-history.ts).
 * Steps recorded before headers named their parts are counted `unverifiable`, not failed.
 */
export async function verifyStore(options: {
  db: Database.Database;
  store: SqliteConversationStore;
  /** Rows that do not validate, as the store reports them; absent: they throw. */
  onInvalidRow?: InvalidRowHandler;
}): Promise<VerifyReport> {
  const { db, store } = options;
  const integrity = (db.pragma('integrity_check') as { integrity_check: string }[])
    .map((row) => row.integrity_check)
    .filter((line) => line !== 'ok');
  const foreignKeys = foreignKeyProblems(db);
  const conversations = db
    .prepare<[], string>(
      `SELECT id FROM conversations UNION SELECT DISTINCT conversation_id FROM events
       UNION SELECT DISTINCT conversation_id FROM messages ORDER BY 1`,
    )
    .pluck()
    .all();
  const journalGaps: JournalGap[] = [];
  const unansweredCalls: VerifyReport['unansweredCalls'] = [];
  const steps: VerifyReport['steps'] = { verified: 0, unverifiable: 0, mismatched: [] };
  const part = requestPartReader(db);
  for (const conversationId of conversations) {
    const rows = store.loadMessageRows(conversationId);
    journalGaps.push(...findJournalGaps({ conversationId, messages: rows, events: store.loadEvents(conversationId) }));
    for (const problem of checkToolAnswers(rows.map((row) => row.message)))
      unansweredCalls.push({ ...problem, conversationId });
    const rebuild = new HistoryRebuild(rows);
    for (const header of store.loadRequestHeaders(conversationId)) {
      if (header.toolsHash === undefined || header.messagesHash === undefined || header.messageSeq === undefined) {
        steps.unverifiable += 1;
        continue;
      }
      const differences = await rebuildDifferences({ header, part, rebuild });
      if (differences.length === 0) steps.verified += 1;
      else steps.mismatched.push({ conversationId, turnId: header.turnId, step: header.step, differences });
    }
  }
  const openTurns = store.unfinishedTurns();
  const startless = turnsWithoutStart(db);
  const unplacedEvents = findUnplacedRows({
    db,
    ...(options.onInvalidRow ? { onInvalidRow: options.onInvalidRow } : {}),
  }).events.map(({ conversationId, seq, why, event }): UnplacedEvent => ({
    conversationId,
    seq,
    turnId: event.turnId,
    type: event.type,
    ...('callId' in event && typeof event.callId === 'string' ? { callId: event.callId } : {}),
    ...('name' in event && typeof event.name === 'string' ? { name: event.name } : {}),
    why,
  }));
  return {
    ok: [
      integrity,
      foreignKeys,
      openTurns,
      startless,
      unplacedEvents,
      journalGaps,
      unansweredCalls,
      steps.mismatched,
    ].every((problems) => problems.length === 0),
    integrity,
    foreignKeys,
    openTurns,
    turnsWithoutStart: startless,
    journalGaps,
    unplacedEvents,
    unansweredCalls,
    steps,
  };
}

/** `PRAGMA foreign_key_check`, grouped by table, parent and the key the rows name. */
function foreignKeyProblems(db: Database.Database): ForeignKeyProblem[] {
  const violations = db.pragma('foreign_key_check') as { table: string; rowid: number; parent: string; fkid: number }[];
  const keyReaders = new Map<string, Database.Statement<[number], Record<string, unknown>>>();
  const groups = new Map<string, ForeignKeyProblem>();
  for (const violation of violations) {
    const reader = `${violation.table}\n${violation.fkid}`;
    if (!keyReaders.has(reader)) {
      const columns = (db.pragma(`foreign_key_list(${quoted(violation.table)})`) as { id: number; from: string }[])
        .filter((column) => column.id === violation.fkid)
        .map((column) => quoted(column.from));
      keyReaders.set(
        reader,
        db.prepare(`SELECT ${columns.join(', ')} FROM ${quoted(violation.table)} WHERE rowid = ?`),
      );
    }
    const key = keyReaders.get(reader)!.get(violation.rowid) ?? {};
    const id = JSON.stringify([violation.table, violation.parent, key]);
    const group = groups.get(id);
    if (group) group.rows += 1;
    else groups.set(id, { table: violation.table, parent: violation.parent, key, rows: 1 });
  }
  return [...groups.values()];
}

/** An SQL identifier in double quotes (the names come from SQLite's own schema). */
function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Reads a stored request part by hash; undefined when absent (or the store predates the table). */
function requestPartReader(db: Database.Database): (hash: string, kind: 'system' | 'tools') => string | undefined {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'request_parts'").get();
  if (exists === undefined) return () => undefined;
  const statement = db
    .prepare<[string, string], string>('SELECT body FROM request_parts WHERE hash = ? AND kind = ?')
    .pluck();
  return (hash, kind) => statement.get(hash, kind);
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** How a header differs from what its stored parts and messages rebuild; empty when it rebuilds exactly. */
async function rebuildDifferences(options: {
  header: RequestHeader;
  part: (hash: string, kind: 'system' | 'tools') => string | undefined;
  rebuild: HistoryRebuild;
}): Promise<string[]> {
  const { header } = options;
  const differences: string[] = [];
  const system = options.part(header.systemPromptHash, 'system');
  const toolsJson = options.part(header.toolsHash!, 'tools');
  if (system === undefined) differences.push(`its system prompt (${short(header.systemPromptHash)}) is not stored`);
  else if (sha256(system) !== header.systemPromptHash)
    differences.push(
      `the stored system prompt hashes to ${short(sha256(system))}, the header says ${short(header.systemPromptHash)}`,
    );
  if (toolsJson === undefined) differences.push(`its tool declarations (${short(header.toolsHash!)}) are not stored`);
  else {
    if (sha256(toolsJson) !== header.toolsHash)
      differences.push(
        `the stored tool declarations hash to ${short(sha256(toolsJson))}, the header says ${short(header.toolsHash!)}`,
      );
    const names = toolNames(toolsJson);
    if (names === undefined) differences.push('the stored tool declarations are not a list of tools');
    else if (JSON.stringify(names) !== JSON.stringify(header.tools))
      differences.push(
        `the tool list differs: the header says [${header.tools.join(', ')}], the stored declarations give [${names.join(', ')}]`,
      );
  }
  const fit: ContextFit = { omittedTurns: header.omittedTurns ?? 0, shortenedResults: header.shortenedResults ?? 0 };
  const fitted = fit.omittedTurns > 0 || fit.shortenedResults > 0;
  const messagesHash = fitted
    ? await options.rebuild.fittedHashThrough(header.messageSeq!, fit)
    : await options.rebuild.hashThrough(header.messageSeq!);
  const sent = fitted
    ? ` as sent (${fit.omittedTurns} earlier turns left out, ${fit.shortenedResults} results shortened)`
    : '';
  if (messagesHash !== header.messagesHash)
    differences.push(
      `the messages through #${header.messageSeq}${sent} hash to ${short(messagesHash)}, the header says ${short(header.messagesHash!)}`,
    );
  if (system !== undefined && toolsJson !== undefined) {
    const requestHash = await requestHashOf({
      systemPromptHash: sha256(system),
      toolsHash: sha256(toolsJson),
      messagesHash,
    });
    if (requestHash !== header.requestHash)
      differences.push(`the request rebuilds to ${short(requestHash)}, the header says ${short(header.requestHash)}`);
  }
  return differences;
}

function toolNames(toolsJson: string): string[] | undefined {
  try {
    const parsed = declaredToolsSchema.safeParse(JSON.parse(toolsJson));
    return parsed.success ? parsed.data.map((tool) => tool.name) : undefined;
  } catch {
    // Not JSON: reported as a difference by the caller.
    return undefined;
  }
}

function short(hash: string): string {
  return hash.slice(0, 12);
}

/**
 * The messages hash of a conversation's history at each step, rebuilt the way the agent built it
 * (gaps answered, the chain extended message by message); steps come in order, so each extends the last.
 */
class HistoryRebuild {
  private answerer = new CallAnswerer();
  private chain = MESSAGES_HASH_START;
  private hashed = 0;
  private next = 0;
  private through = 0;

  constructor(private readonly rows: readonly { seq: number; message: ConversationMessage }[]) {}

  async hashThrough(messageSeq: number): Promise<string> {
    if (messageSeq < this.through) {
      this.answerer = new CallAnswerer();
      this.chain = MESSAGES_HASH_START;
      this.hashed = 0;
      this.next = 0;
    }
    this.through = messageSeq;
    while (this.next < this.rows.length && this.rows[this.next]!.seq <= messageSeq)
      this.answerer.push(this.rows[this.next++]!.message);
    const { answered } = this.answerer;
    for (; this.hashed < answered.length; this.hashed += 1)
      this.chain = await chainMessageHash(this.chain, answered[this.hashed]!);
    let hash = this.chain;
    for (const message of this.answerer.closing()) hash = await chainMessageHash(hash, message);
    return hash;
  }

  /** The hash of the history through `messageSeq` as a fitted request sent it (the chain starts over at what was sent). */
  async fittedHashThrough(messageSeq: number, fit: ContextFit): Promise<string> {
    await this.hashThrough(messageSeq);
    let hash = MESSAGES_HASH_START;
    for (const message of applyFit([...this.answerer.answered, ...this.answerer.closing()], fit))
      hash = await chainMessageHash(hash, message);
    return hash;
  }
}
