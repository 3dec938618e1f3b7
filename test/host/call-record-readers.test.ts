import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentEvent } from '../../core/events/agent-event.ts';
import { emptyCallRecords, foldCallRecords, type BatchRecord } from '../../core/events/fold-call-records.ts';
import { emptyFoldedData, foldEvents } from '../../renderer/state/fold-event.ts';
import { PeopleOutput } from '../../host/front/cli/people-output.ts';
import { exportConversations } from '../../host/store/export-conversations.ts';
import { repairInterruptedTurns } from '../../host/app/repair-interrupted-turns.ts';
import { openDatabase } from '../../host/store/open-database.ts';
import { SqliteConversationStore } from '../../host/store/sqlite-conversation-store.ts';
import { verifyStore } from '../../host/store/verify-store.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

const where = { conversationId: 'c1', turnId: 't1' };
const relayArgs = { device_id: 'relay-1', channel: 2, on: true };
const lampArgs = { device_id: 'lamp-1', on: true };
const stopped = { reason: 'aborted' as const, detail: 'relay__set was stopped because the turn was aborted.' };
const notRun = { reason: 'aborted' as const, detail: 'lamp__set was stopped before it ran.' };

/**
 * The fixture journal, written by hand: a reply whose first call (relay__set) started while it
 * streamed and waited 50 ms for the person; the reply then declared a second call (lamp__set); the
 * person pressed Stop: the relay's outcome is unknown, the lamp was never sent, and the relay was
 * read again after the stop.
 */
const journal: AgentEvent[] = [
  { ...where, at: 1000, type: 'turn/start', text: 'Relay 2 and the lamp on', model: 'loopback' },
  { ...where, at: 1001, type: 'step/start', step: 1 },
  { ...where, at: 1005, type: 'text/delta', step: 1, text: 'Switching.' },
  { ...where, at: 1010, type: 'batch/open', batchId: 'b1', step: 1 },
  {
    ...where,
    at: 1011,
    type: 'tool/start',
    batchId: 'b1',
    callId: 'call-a',
    name: 'relay__set',
    index: 0,
    early: true,
    args: relayArgs,
  },
  {
    ...where,
    at: 1012,
    type: 'approval/request',
    batchId: 'b1',
    callId: 'call-a',
    index: 0,
    name: 'relay__set',
    args: relayArgs,
  },
  { ...where, at: 1062, type: 'approval/end', batchId: 'b1', callId: 'call-a', approved: true, why: 'answered' },
  {
    ...where,
    at: 1100,
    type: 'message/assistant',
    step: 1,
    text: 'Switching.',
    toolCalls: [
      { id: 'call-a', name: 'relay__set', args: relayArgs },
      { id: 'call-b', name: 'lamp__set', args: lampArgs },
    ],
  },
  {
    ...where,
    at: 1101,
    type: 'batch/start',
    step: 1,
    batchId: 'b1',
    mode: 'serial',
    reason: 'serial: relay__set declares serial',
    calls: [
      { index: 0, callId: 'call-a', name: 'relay__set', args: relayArgs },
      { index: 1, callId: 'call-b', name: 'lamp__set', args: lampArgs },
    ],
  },
  {
    ...where,
    at: 1201,
    type: 'tool/end',
    batchId: 'b1',
    callId: 'call-a',
    name: 'relay__set',
    index: 0,
    ok: false,
    error: stopped,
    outcome: 'unknown',
    queuedMs: 1,
    runMs: 190,
    approvalMs: 50,
    startedAt: 1011,
    endedAt: 1201,
  },
  {
    ...where,
    at: 1202,
    type: 'tool/end',
    batchId: 'b1',
    callId: 'call-b',
    name: 'lamp__set',
    index: 1,
    ok: false,
    error: notRun,
    outcome: 'not_sent',
    queuedMs: 192,
    runMs: 0,
    startedAt: 1202,
    endedAt: 1202,
  },
  { ...where, at: 1203, type: 'batch/end', batchId: 'b1', wallMs: 193, executed: 0 },
  { ...where, at: 1204, type: 'step/end', step: 1 },
  {
    ...where,
    at: 1300,
    type: 'device/state',
    deviceId: 'relay-1',
    tool: 'relay__get',
    callIds: ['call-a'],
    args: { channel: 2 },
    result: { on: true },
  },
  { ...where, at: 1301, type: 'turn/end', reason: 'aborted' },
];

const readBack = { deviceId: 'relay-1', tool: 'relay__get', args: { channel: 2 }, result: { on: true } };

/** The records the journal stands for, written by hand from it. */
const expectedBatch: BatchRecord = {
  id: 'b1',
  ...where,
  step: 1,
  sequence: 1,
  openedAt: 1010,
  startedAt: 1101,
  mode: 'serial',
  reason: 'serial: relay__set declares serial',
  endedAt: 1203,
  wallMs: 193,
  executed: 0,
  calls: [
    {
      index: 0,
      callId: 'call-a',
      name: 'relay__set',
      args: relayArgs,
      status: 'done',
      early: true,
      runningSince: 1011,
      ok: false,
      error: stopped,
      outcome: 'unknown',
      queuedMs: 1,
      runMs: 190,
      approvalMs: 50,
      startedAt: 1011,
      endedAt: 1201,
      stateAfterStop: readBack,
    },
    {
      index: 1,
      callId: 'call-b',
      name: 'lamp__set',
      args: lampArgs,
      status: 'done',
      ok: false,
      error: notRun,
      outcome: 'not_sent',
      queuedMs: 192,
      runMs: 0,
      startedAt: 1202,
      endedAt: 1202,
    },
  ],
};

function tempDatabase(): { db: ReturnType<typeof openDatabase>; store: SqliteConversationStore } {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-readers-'));
  const db = openDatabase({ file: path.join(dataDir, 'home-agent.db') });
  cleanups.push(() => {
    db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { db, store: new SqliteConversationStore({ db }) };
}

function tempStore(): SqliteConversationStore {
  return tempDatabase().store;
}

describe('one call record, read by the window, ask, export and the start-up repair', () => {
  it('core folds the fixture journal into the hand-written records', () => {
    expect(foldCallRecords(emptyCallRecords, journal).batches).toEqual({ b1: expectedBatch });
  });

  it('the window folds the same journal into the same records', () => {
    const folded = foldEvents(emptyFoldedData, journal);
    expect(folded.batches).toEqual({ b1: expectedBatch });
    expect(folded.batchOrder).toEqual({ c1: ['b1'] });
  });

  it('export writes each call with its outcome, approval time, early start and read-back', () => {
    const store = tempStore();
    store.ensureConversation('c1', 'Relay 2 and the lamp on');
    for (const event of journal) store.appendEvent(event);
    const [conversation] = exportConversations({ store }).conversations;
    expect(conversation?.turns[0]?.calls).toEqual([
      {
        callId: 'call-a',
        name: 'relay__set',
        args: relayArgs,
        step: 1,
        batchId: 'b1',
        index: 0,
        mode: 'serial',
        ok: false,
        error: stopped,
        queuedMs: 1,
        runMs: 190,
        startedAt: 1011,
        endedAt: 1201,
        outcome: 'unknown',
        approvalMs: 50,
        early: true,
        readBack,
      },
      {
        callId: 'call-b',
        name: 'lamp__set',
        args: lampArgs,
        step: 1,
        batchId: 'b1',
        index: 1,
        mode: 'serial',
        ok: false,
        error: notRun,
        queuedMs: 192,
        runMs: 0,
        startedAt: 1202,
        endedAt: 1202,
        outcome: 'not_sent',
      },
    ]);
  });

  it('ask prints the same records: outcomes in words, the wait apart, the early start said', () => {
    let text = '';
    const output = new PeopleOutput({ write: (chunk) => (text += chunk), now: () => 0 });
    for (const event of journal) output.handle(event);
    expect(text.split('\n')).toEqual([
      'Switching.',
      '┌ batch 1 · serial — relay__set declares serial',
      '│ 1. relay__set  device_id: "relay-1", channel: 2, on: true — outcome unknown: aborted: relay__set was stopped because the turn was aborted. — the request left but no answer came: the device may have acted · ran 140 ms · waited 50 ms for you (started while the reply streamed)',
      '│ 2. lamp__set  device_id: "lamp-1", on: true — not sent: aborted: lamp__set was stopped before it ran. — nothing reached the device: it did not act · ran 0 ms',
      '└ 0 of 2 done in 193 ms',
      'relay-1 (channel: 2) read after the stop: it is now on',
      'Stopped.',
      '',
    ]);
  });

  it('the start-up repair reads a journal cut after an early start through the same fold', async () => {
    const { db, store } = tempDatabase();
    store.ensureConversation('c1', 'Relay 2 and the lamp on');
    store.appendMessage('c1', { role: 'user', text: 'Relay 2 and the lamp on' });
    // The host died right after the relay's call started early (its approval already asked).
    for (const event of journal.slice(0, 6)) store.appendEvent(event);
    expect(repairInterruptedTurns(store, () => 5000)).toEqual({ turns: 1, calls: 1 });
    const batch = foldCallRecords(emptyCallRecords, store.loadEvents('c1')).batches.b1;
    expect(batch).toMatchObject({ mode: 'serial', endedAt: 5000, executed: 0 });
    expect(batch?.calls).toMatchObject([
      { callId: 'call-a', name: 'relay__set', args: relayArgs, early: true, status: 'done', outcome: 'unknown' },
    ]);
    // The call is in the history with its answer, so the next request tells the model it may have acted.
    const messages = store.loadMessages('c1');
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(messages[1]).toEqual({
      role: 'assistant',
      text: 'Switching.',
      toolCalls: [{ id: 'call-a', name: 'relay__set', args: relayArgs }],
    });
    expect(messages[2]).toMatchObject({ role: 'tool', toolCallId: 'call-a', isError: true });
    expect(JSON.parse((messages[2] as { content: string }).content)).toMatchObject({ outcome: 'unknown' });
    // The message it stored is journaled as stored: verify finds no gap.
    const report = await verifyStore({ db, store });
    expect(report, JSON.stringify(report)).toMatchObject({ ok: true });
  });

  // The reply ended whole while the relay ran early: its message/assistant (both calls) is journaled,
  // then the message stored, then batch/start declared. A kill can land between any two of them.
  describe.each([
    ['journaled, not yet stored', false],
    ['journaled and stored, the batch not yet declared', true],
  ])('a reply whose message was %s when the host died', (_moment, stored) => {
    it('is stored once, with every call of the reply, each answered once, and verify passes', async () => {
      const { db, store } = tempDatabase();
      store.ensureConversation('c1', 'Relay 2 and the lamp on');
      store.appendMessage('c1', { role: 'user', text: 'Relay 2 and the lamp on' });
      // Up to and with the reply's message/assistant.
      for (const event of journal.slice(0, 8)) store.appendEvent(event);
      const assistant = {
        role: 'assistant' as const,
        text: 'Switching.',
        toolCalls: [
          { id: 'call-a', name: 'relay__set', args: relayArgs },
          { id: 'call-b', name: 'lamp__set', args: lampArgs },
        ],
      };
      if (stored) store.appendMessage('c1', assistant);
      expect(repairInterruptedTurns(store, () => 5000)).toEqual({ turns: 1, calls: 2 });
      const messages = store.loadMessages('c1');
      expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
      expect(messages[1]).toEqual(assistant);
      const answers = messages.slice(2) as { toolCallId: string; content: string }[];
      expect(answers.map((answer) => [answer.toolCallId, JSON.parse(answer.content).outcome])).toEqual([
        ['call-a', 'unknown'],
        ['call-b', 'not_sent'],
      ]);
      const events = store.loadEvents('c1');
      expect(events.filter((event) => event.type === 'message/assistant')).toHaveLength(1);
      expect(foldCallRecords(emptyCallRecords, events).batches.b1?.calls).toMatchObject([
        { callId: 'call-a', early: true, outcome: 'unknown' },
        { callId: 'call-b', outcome: 'not_sent' },
      ]);
      const report = await verifyStore({ db, store });
      expect(report, JSON.stringify(report)).toMatchObject({ ok: true });
    });
  });
});
