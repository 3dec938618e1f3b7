import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import { exportConversations } from '../../../host/store/export-conversations.ts';
import { findUnplacedRows } from '../../../host/store/orphaned-rows.ts';
import { openDatabase } from '../../../host/store/open-database.ts';
import { SqliteConversationStore } from '../../../host/store/sqlite-conversation-store.ts';
import { verifyStore } from '../../../host/store/verify-store.ts';
import { TempStoreFolder } from './temp-store-folder.ts';

const folders: TempStoreFolder[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) folder.dispose();
});

type Input = AgentEvent extends infer E
  ? E extends AgentEvent
    ? Omit<E, 'at' | 'conversationId' | 'turnId'>
    : never
  : never;

/** A store with one closed turn `t1` of conversation `c`, holding the given events between its start and end. */
function storeWith(events: Input[]) {
  const folder = new TempStoreFolder();
  folders.push(folder);
  const db = folder.own(openDatabase({ file: folder.file() }));
  const store = new SqliteConversationStore({ db, now: () => 5 });
  store.ensureConversation('c', 'test');
  const base = { at: 5, conversationId: 'c', turnId: 't1' };
  for (const event of [
    { type: 'turn/start', text: 'go', model: 'm' } as Input,
    ...events,
    { type: 'turn/end', reason: 'done' } as Input,
  ])
    store.appendEvent({ ...base, ...event } as AgentEvent);
  return { db, store };
}

const end = (callId: string, batchId = 'b1'): Input => ({
  type: 'tool/end',
  batchId,
  callId,
  name: 'lamp__set',
  index: 0,
  ok: true,
  result: 'on',
  outcome: 'done',
  queuedMs: 0,
  runMs: 1,
  startedAt: 5,
  endedAt: 6,
});
const start = (callId: string, batchId = 'b1'): Input => ({
  type: 'tool/start',
  batchId,
  callId,
  name: 'lamp__set',
  index: 0,
});

describe('calls the journal never declared', () => {
  it('are unplaced when no batch/start of their turn declares them: export keeps them, verify fails naming them', async () => {
    // The batch/start was refused by the journal; the call's start and end were not.
    const { db, store } = storeWith([
      start('call_0'),
      end('call_0'),
      { type: 'batch/end', batchId: 'b1', wallMs: 1, executed: 1 },
    ]);
    const unplaced = findUnplacedRows({ db });
    expect(unplaced.events.map((row) => [row.seq, row.why, row.event.type])).toEqual([
      [2, 'no_batch_start', 'tool/start'],
      [3, 'no_batch_start', 'tool/end'],
    ]);
    expect(exportConversations({ store, unplaced }).unplaced?.events).toHaveLength(2);
    const report = await verifyStore({ db, store });
    expect(report.ok).toBe(false);
    expect(report.unplacedEvents).toEqual([
      {
        conversationId: 'c',
        seq: 2,
        type: 'tool/start',
        turnId: 't1',
        callId: 'call_0',
        name: 'lamp__set',
        why: 'no_batch_start',
      },
      {
        conversationId: 'c',
        seq: 3,
        type: 'tool/end',
        turnId: 't1',
        callId: 'call_0',
        name: 'lamp__set',
        why: 'no_batch_start',
      },
    ]);
  });

  it('are placed when their batch/start, or an early tool/start carrying their arguments, is in their turn', async () => {
    const { db, store } = storeWith([
      { type: 'batch/open', batchId: 'b1', step: 1 },
      {
        type: 'tool/start',
        batchId: 'b1',
        callId: 'call_0',
        name: 'lamp__set',
        index: 0,
        early: true,
        args: { on: true },
      },
      end('call_0'),
      {
        type: 'batch/start',
        step: 1,
        batchId: 'b2',
        mode: 'serial',
        reason: 'serial',
        calls: [{ index: 0, callId: 'call_1', name: 'lamp__set', args: {} }],
      },
      start('call_1', 'b2'),
      end('call_1', 'b2'),
      // A call of another batch than the one that declared that id is not placed by it.
      end('call_1', 'b3'),
    ]);
    expect(findUnplacedRows({ db }).events.map((row) => [row.seq, row.why])).toEqual([[8, 'no_batch_start']]);
    expect((await verifyStore({ db, store })).unplacedEvents.map((row) => row.seq)).toEqual([8]);
  });
});
