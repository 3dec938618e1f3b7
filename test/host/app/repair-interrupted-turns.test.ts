import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHost, type Host } from '../../../host/app/create-host.ts';
import { openDatabase } from '../../../host/store/open-database.ts';
import { SqliteConversationStore } from '../../../host/store/sqlite-conversation-store.ts';
import { databaseFileOf } from '../../../host/config/data-dir.ts';
import { ScriptedModel } from '../../../core/models/scripted/scripted-model.ts';
import type { AgentEvent } from '../../../core/events/agent-event.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A fresh data folder, removed after the test. */
function tempDataDir(): string {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-interrupted-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  return dataDir;
}

/** The data folder's journal, opened as the killed process had it open. */
function openJournal(dataDir: string): { db: ReturnType<typeof openDatabase>; store: SqliteConversationStore } {
  const db = openDatabase({ file: databaseFileOf(dataDir) });
  return { db, store: new SqliteConversationStore({ db }) };
}

/** The tool/end of call 0, lamp__set, that switched lamp-1 on (ran 3 ms). */
function lampOneSwitchedOn(where: {
  conversationId: string;
  turnId: string;
  at: number;
  batchId: string;
  callId: string;
}): AgentEvent {
  return {
    ...where,
    type: 'tool/end',
    name: 'lamp__set',
    index: 0,
    ok: true,
    result: { device_id: 'lamp-1', result: { on: true } },
    outcome: 'done',
    queuedMs: 0,
    runMs: 3,
    startedAt: 1,
    endedAt: 4,
  };
}

/** The host started again on the journal the killed process left, disposed after the test. */
async function startHost(dataDir: string, log: (line: string) => void = () => {}): Promise<Host> {
  const host = await createHost({
    dataDir,
    transport: 'web',
    model: new ScriptedModel({ replies: [] }),
    log,
    version: 'test',
  });
  cleanups.push(() => host.dispose());
  return host;
}

describe('a turn the process was killed in', () => {
  it('is closed as aborted when the host starts again, and a finished turn is left alone', async () => {
    const dataDir = tempDataDir();
    // The journal as a killed process leaves it: one finished turn, one that stopped mid-approval.
    const { db, store } = openJournal(dataDir);
    store.ensureConversation('c1', 'test');
    const base = { conversationId: 'c1', at: 1 };
    store.appendEvent({ ...base, turnId: 't1', type: 'turn/start', text: 'a', model: 'm' });
    store.appendEvent({ ...base, turnId: 't1', type: 'turn/end', reason: 'done' });
    store.appendEvent({ ...base, turnId: 't2', type: 'turn/start', text: 'b', model: 'm' });
    store.appendEvent({
      ...base,
      turnId: 't2',
      type: 'approval/request',
      batchId: 'b1',
      callId: 'k1',
      index: 0,
      name: 'relay__set',
      args: {},
    });
    db.close();

    const host = await startHost(dataDir);
    const ends = host.store.loadEvents('c1').filter((event) => event.type === 'turn/end');
    expect(ends.map((event) => [event.turnId, event.type === 'turn/end' ? event.reason : ''])).toEqual([
      ['t1', 'done'],
      ['t2', 'aborted'],
    ]);
    expect(host.store.unfinishedTurns()).toEqual([]);
  });
});

describe('a batch the process was killed in', () => {
  it('gets every call answered in the messages from the journal, and its turn closed in balance', async () => {
    const dataDir = tempDataDir();
    const { db, store } = openJournal(dataDir);
    store.ensureConversation('c1', 'lamps');
    const base = { conversationId: 'c1', turnId: 't1', at: 1 };
    const calls = [
      { index: 0, callId: 'k0', name: 'lamp__set', args: { device_id: 'lamp-1', on: true } },
      { index: 1, callId: 'k1', name: 'lamp__set', args: { device_id: 'lamp-2', on: true } },
      { index: 2, callId: 'k2', name: 'thermometer__read', args: {} },
    ];
    store.appendMessage('c1', { role: 'user', text: 'lamps on' });
    store.appendMessage('c1', {
      role: 'assistant',
      text: '',
      toolCalls: calls.map((call) => ({ id: call.callId, name: call.name, args: call.args })),
    });
    // Killed while k1 ran: k0 ended ok, k1 started, k2 never started (a serial batch).
    const journal: AgentEvent[] = [
      { ...base, type: 'turn/start', text: 'lamps on', model: 'm' },
      { ...base, type: 'step/start', step: 1 },
      { ...base, type: 'batch/start', step: 1, batchId: 'b1', mode: 'serial', reason: 'serial: test', calls },
      { ...base, type: 'tool/start', batchId: 'b1', callId: 'k0', name: 'lamp__set', index: 0 },
      lampOneSwitchedOn({ ...base, batchId: 'b1', callId: 'k0' }),
      { ...base, type: 'tool/start', batchId: 'b1', callId: 'k1', name: 'lamp__set', index: 1 },
    ];
    for (const event of journal) store.appendEvent(event);
    db.close();

    const logged: string[] = [];
    const host = await startHost(dataDir, (line) => logged.push(line));

    const tools = host.store.loadMessages('c1').filter((message) => message.role === 'tool');
    expect(tools.map((message) => (message.role === 'tool' ? [message.toolCallId, message.isError] : []))).toEqual([
      ['k0', false],
      ['k1', true],
      ['k2', true],
    ]);
    const [k0, k1, k2] = tools.map((message) => (message.role === 'tool' ? JSON.parse(message.content) : undefined));
    expect(k0).toEqual({ device_id: 'lamp-1', result: { on: true } });
    expect(k1).toMatchObject({ outcome: 'unknown', error: { reason: 'aborted' } });
    expect(k2).toMatchObject({ outcome: 'not_sent', error: { reason: 'aborted' } });

    const ends = host.store.loadEvents('c1').filter((event) => event.type === 'tool/end');
    expect(ends.map((event) => (event.type === 'tool/end' ? [event.callId, event.outcome] : []))).toEqual([
      ['k0', 'done'],
      ['k1', 'unknown'],
      ['k2', 'not_sent'],
    ]);
    const types = host.store.loadEvents('c1').map((event) => event.type);
    expect(types.slice(-3)).toEqual(['batch/end', 'step/end', 'turn/end']);
    expect(logged.join('\n')).toContain('answered 3 unfinished tool call(s)');
  });
});

describe('a killed batch whose call ids an earlier turn used too', () => {
  it('is answered from its own turn, never with the result of an earlier call of the same id', async () => {
    // Some servers number calls per reply (call_0, call_1, …), so ids repeat across turns.
    const dataDir = tempDataDir();
    const { db, store } = openJournal(dataDir);
    store.ensureConversation('c1', 'lamps');
    const call = { index: 0, callId: 'call_0', name: 'lamp__set', args: { device_id: 'lamp-1', on: true } };
    const turn = (turnId: string) => ({ conversationId: 'c1', turnId, at: 1 });
    // Turn t1 ran call_0 to the end; turn t2 made another call_0 and was killed before its batch began.
    for (const turnId of ['t1', 't2']) {
      store.appendMessage('c1', { role: 'user', text: 'lamp on' });
      store.appendMessage('c1', {
        role: 'assistant',
        text: '',
        toolCalls: [{ id: 'call_0', name: call.name, args: call.args }],
      });
      store.appendEvent({ ...turn(turnId), type: 'turn/start', text: 'lamp on', model: 'm' });
      store.appendEvent({ ...turn(turnId), type: 'step/start', step: 1 });
      store.appendEvent({
        ...turn(turnId),
        type: 'message/assistant',
        step: 1,
        text: '',
        toolCalls: [{ id: 'call_0', name: call.name, args: call.args }],
      });
      // Turn t2 was killed here: its reply was stored, its batch never started.
      if (turnId === 't2') break;
      store.appendEvent({
        ...turn(turnId),
        type: 'batch/start',
        step: 1,
        batchId: `b-${turnId}`,
        mode: 'serial',
        reason: 'one call',
        calls: [call],
      });
      store.appendEvent({
        ...turn(turnId),
        type: 'tool/start',
        batchId: 'b-t1',
        callId: 'call_0',
        name: call.name,
        index: 0,
      });
      store.appendEvent(lampOneSwitchedOn({ ...turn(turnId), batchId: 'b-t1', callId: 'call_0' }));
      store.appendMessage('c1', {
        role: 'tool',
        toolCallId: 'call_0',
        toolName: call.name,
        content: '{"on":true}',
        isError: false,
      });
      store.appendEvent({ ...turn(turnId), type: 'batch/end', batchId: 'b-t1', wallMs: 3, executed: 1 });
      store.appendEvent({ ...turn(turnId), type: 'step/end', step: 1 });
      store.appendEvent({ ...turn(turnId), type: 'turn/end', reason: 'done' });
    }
    db.close();

    const host = await startHost(dataDir);
    const last = host.store.loadMessages('c1').at(-1);
    expect(last).toMatchObject({ role: 'tool', toolCallId: 'call_0', isError: true });
    expect(JSON.parse(last?.role === 'tool' ? last.content : '{}')).toMatchObject({ outcome: 'not_sent' });
  });
});
