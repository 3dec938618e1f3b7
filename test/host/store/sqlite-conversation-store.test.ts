import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import type { ConversationMessage } from '../../../core/models/conversation-message.ts';
import { openDatabase } from '../../../host/store/open-database.ts';
import type { InvalidRowReport } from '../../../host/store/parse-stored-row.ts';
import { SqliteConversationStore } from '../../../host/store/sqlite-conversation-store.ts';
import { StoreError } from '../../../host/store/store-error.ts';
import { TempStoreFolder } from './temp-store-folder.ts';

let folder: TempStoreFolder;
let children: ChildProcess[];
beforeEach(() => {
  folder = new TempStoreFolder();
  children = [];
});
afterEach(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  folder.dispose();
});

/** A store on a fresh file with a hand-driven clock and ids c1, c2, … */
function openStore(options: { onInvalidRow?: (report: InvalidRowReport) => void } = {}) {
  const clock = { now: 1_000 };
  let nextId = 0;
  const db = folder.own(openDatabase({ file: folder.file() }));
  const store = new SqliteConversationStore({ db, now: () => clock.now, newId: () => `c${(nextId += 1)}`, ...options });
  return { db, store, clock };
}

const base = { conversationId: 'c1', turnId: 't1' };
const turn: AgentEvent[] = [
  { ...base, at: 2_000, type: 'turn/start', text: 'lights on in the kitchen', model: 'scripted' },
  { ...base, at: 2_001, type: 'step/start', step: 1 },
  {
    ...base,
    at: 2_002,
    type: 'request/header',
    step: 1,
    tools: ['lamp__set', 'output_send__chat'],
    systemPromptHash: 'sp1',
    requestHash: 'rq1',
  },
  {
    ...base,
    at: 2_010,
    type: 'message/assistant',
    step: 1,
    text: '',
    toolCalls: [{ id: 'call_1', name: 'lamp__set', args: { device_id: 'k1', on: true } }],
  },
  {
    ...base,
    at: 2_011,
    type: 'batch/start',
    step: 1,
    batchId: 'b1',
    mode: 'serial',
    reason: 'serial: one call',
    calls: [{ index: 0, callId: 'call_1', name: 'lamp__set', args: { device_id: 'k1', on: true } }],
  },
  { ...base, at: 2_012, type: 'tool/start', batchId: 'b1', callId: 'call_1', name: 'lamp__set', index: 0 },
  {
    ...base,
    at: 2_290,
    type: 'tool/end',
    batchId: 'b1',
    callId: 'call_1',
    name: 'lamp__set',
    index: 0,
    ok: true,
    result: { on: true },
    queuedMs: 3,
    runMs: 275,
    startedAt: 2_015,
    endedAt: 2_290,
  },
  { ...base, at: 2_291, type: 'batch/end', batchId: 'b1', wallMs: 280, executed: 1 },
  { ...base, at: 2_292, type: 'step/end', step: 1 },
  { ...base, at: 2_300, type: 'step/start', step: 2 },
  {
    ...base,
    at: 2_301,
    type: 'request/header',
    step: 2,
    tools: ['lamp__set', 'output_send__chat'],
    systemPromptHash: 'sp1',
    requestHash: 'rq2',
  },
  { ...base, at: 2_400, type: 'turn/end', reason: 'done' },
];

const messages: ConversationMessage[] = [
  { role: 'user', text: 'lights on in the kitchen' },
  {
    role: 'assistant',
    text: 'On it.',
    toolCalls: [
      { id: 'call_1', name: 'lamp__set', args: { device_id: 'k1', on: true } },
      { id: 'call_2', name: 'lamp__set', args: {}, argumentsText: '{"on":tru' },
    ],
  },
  {
    role: 'tool',
    toolCallId: 'call_1',
    toolName: 'lamp__set',
    content: '{"on":true}',
    isError: false,
    media: [{ mimeType: 'image/png', data: 'iVBORw0KGgo=' }],
  },
  { role: 'tool', toolCallId: 'call_2', toolName: 'lamp__set', content: '{"reason":"invalid_json"}', isError: true },
];

describe('SqliteConversationStore', () => {
  it('creates conversations and lists the most recently active first', () => {
    const { store, clock } = openStore();
    expect(store.createConversation('Kitchen')).toEqual({
      id: 'c1',
      title: 'Kitchen',
      createdAt: 1_000,
      updatedAt: 1_000,
    });
    clock.now = 1_100;
    store.createConversation('Garden');
    clock.now = 1_200;
    store.ensureConversation('cli-1', 'From the CLI');
    clock.now = 1_300;
    store.appendMessage('c1', { role: 'user', text: 'hello' });
    expect(store.listConversations()).toEqual([
      { id: 'c1', title: 'Kitchen', createdAt: 1_000, updatedAt: 1_300 },
      { id: 'cli-1', title: 'From the CLI', createdAt: 1_200, updatedAt: 1_200 },
      { id: 'c2', title: 'Garden', createdAt: 1_100, updatedAt: 1_100 },
    ]);
  });

  it('keeps the first title when a conversation is ensured twice', () => {
    const { store } = openStore();
    store.ensureConversation('x', 'First');
    store.ensureConversation('x', 'Second');
    expect(store.getConversation('x')?.title).toBe('First');
  });

  it('renames without moving the conversation up, and refuses an unknown id', () => {
    const { store, clock } = openStore();
    store.createConversation('Old');
    clock.now = 5_000;
    expect(store.renameConversation('c1', 'New')).toEqual({
      id: 'c1',
      title: 'New',
      createdAt: 1_000,
      updatedAt: 1_000,
    });
    expect(() => store.renameConversation('nope', 'x')).toThrow(expect.objectContaining({ kind: 'not_found' }));
  });

  it('gives back messages exactly as appended, in order, per conversation', () => {
    const { store } = openStore();
    store.createConversation('One');
    store.createConversation('Two');
    for (const message of messages) store.appendMessage('c1', message);
    store.appendMessage('c2', { role: 'user', text: 'other' });
    expect(store.loadMessages('c1')).toEqual(messages);
    expect(store.loadMessages('c2')).toEqual([{ role: 'user', text: 'other' }]);
    expect(store.loadMessages('unknown')).toEqual([]);
  });

  it('refuses a message for a conversation that does not exist', () => {
    const { store } = openStore();
    expect(() => store.appendMessage('ghost', { role: 'user', text: 'hi' })).toThrow(
      expect.objectContaining({ kind: 'not_found' }),
    );
  });

  it('journals every event with a per-conversation sequence number and gives the journal back in order', () => {
    const { store, db } = openStore();
    store.createConversation('Kitchen');
    const seqs = turn.map((event) => store.appendEvent(event));
    const other = store.appendEvent({ ...turn[0]!, conversationId: 'c2' });
    expect(seqs).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(other).toBe(1);
    expect(store.loadEvents('c1')).toEqual(turn);
    const columns = db
      .prepare("SELECT seq, turn_id AS turnId, type, at FROM events WHERE conversation_id = 'c1' AND seq IN (3, 7)")
      .all();
    expect(columns).toEqual([
      { seq: 3, turnId: 't1', type: 'request/header', at: 2_002 },
      { seq: 7, turnId: 't1', type: 'tool/end', at: 2_290 },
    ]);
    expect(store.getConversation('c1')?.updatedAt).toBe(2_400);
  });

  it('answers the request headers and the tool timings of a conversation from the journal', () => {
    const { store } = openStore();
    for (const event of turn) store.appendEvent(event);
    expect(store.loadRequestHeaders('c1')).toEqual([turn[2], turn[10]]);
    const [toolEnd] = store.loadEventsOfType('c1', 'tool/end');
    expect(toolEnd).toMatchObject({ callId: 'call_1', queuedMs: 3, runMs: 275, startedAt: 2_015, endedAt: 2_290 });
  });

  it('keeps conversations, messages and the journal across a close and reopen', () => {
    const first = openStore();
    first.store.createConversation('Kitchen');
    for (const message of messages) first.store.appendMessage('c1', message);
    for (const event of turn) first.store.appendEvent(event);
    first.db.close();

    const db = folder.own(openDatabase({ file: folder.file() }));
    const store = new SqliteConversationStore({ db });
    expect(store.listConversations()).toEqual([{ id: 'c1', title: 'Kitchen', createdAt: 1_000, updatedAt: 2_400 }]);
    expect(store.loadMessages('c1')).toEqual(messages);
    expect(store.loadEvents('c1')).toEqual(turn);
    expect(store.appendEvent({ ...base, at: 3_000, type: 'turn/start', text: 'again', model: 'scripted' })).toBe(13);
  });

  describe('a stored row that no longer validates', () => {
    function damage(db: Database.Database): void {
      db.prepare('UPDATE messages SET payload = \'{"role":"user","txt":"typo"}\' WHERE seq = 2').run();
      db.prepare("UPDATE messages SET payload = 'not json' WHERE seq = 3").run();
      db.prepare("UPDATE messages SET role = 'user' WHERE seq = 4").run();
      db.prepare('UPDATE events SET payload = \'{"type":"tool/end","callId":"call_1"}\' WHERE seq = 7').run();
    }

    it('throws a StoreError naming the row when no handler is given', () => {
      const { store, db } = openStore();
      store.createConversation('Kitchen');
      for (const message of messages) store.appendMessage('c1', message);
      for (const event of turn) store.appendEvent(event);
      damage(db);
      let caught: unknown;
      try {
        store.loadMessages('c1');
      } catch (error) {
        caught = error;
      }
      expect(StoreError.isInstance(caught) && caught.kind).toBe('invalid_row');
      expect((caught as StoreError).detail).toContain('c1#2');
      expect(() => store.loadEvents('c1')).toThrow(
        expect.objectContaining({ kind: 'invalid_row', detail: expect.stringContaining('c1#7') }),
      );
    });

    it('is skipped and reported to the handler, never dropped silently', () => {
      const reports: InvalidRowReport[] = [];
      const { store, db } = openStore({ onInvalidRow: (report) => reports.push(report) });
      store.createConversation('Kitchen');
      for (const message of messages) store.appendMessage('c1', message);
      for (const event of turn) store.appendEvent(event);
      damage(db);
      expect(store.loadMessages('c1')).toEqual([messages[0]]);
      expect(store.loadEvents('c1')).toEqual(turn.filter((_, index) => index !== 6));
      expect(reports.map((report) => `${report.table} ${report.key}`)).toEqual([
        'messages c1#2',
        'messages c1#3',
        'messages c1#4',
        'events c1#7',
      ]);
      expect(reports[1]!.detail).toContain('not JSON');
      expect(reports[2]!.detail).toContain('role column says user');
    });
  });

  it('loses no acknowledged event when the writing process is killed', async () => {
    const file = folder.file();
    const script = fileURLToPath(new URL('./append-events-until-killed.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const lastAcknowledged = await new Promise<number>((resolve, reject) => {
      let buffered = '';
      let last = 0;
      child.stdout!.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) last = Number(line);
        if (last >= 300 && child.signalCode === null) {
          child.kill('SIGKILL');
          resolve(last);
        }
      });
      child.on('exit', (code) => reject(new Error(`child exited early with ${code}: ${stderr}`)));
    });
    const exited = await new Promise<NodeJS.Signals | null>((resolve) => {
      if (child.signalCode !== null) resolve(child.signalCode);
      else child.on('exit', (_code, signal) => resolve(signal));
    });
    expect(exited).toBe('SIGKILL');
    // The events live in the WAL the dead process left behind: reopening must recover them.
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(0);

    const db = folder.own(openDatabase({ file }));
    const events = new SqliteConversationStore({ db }).loadEvents('crash');
    expect(events.length).toBeGreaterThanOrEqual(lastAcknowledged);
    const seqs = db.prepare("SELECT seq FROM events WHERE conversation_id = 'crash' ORDER BY seq").pluck().all();
    expect(seqs).toEqual(Array.from({ length: events.length }, (_, index) => index + 1));
    expect(events.at(-1)).toMatchObject({ type: 'text/delta', at: 1_700_000_000_000 + events.length });
  });
});
