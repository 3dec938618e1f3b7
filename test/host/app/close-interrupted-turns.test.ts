import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHost } from '../../../host/app/create-host.ts';
import { openDatabase } from '../../../host/store/open-database.ts';
import { SqliteConversationStore } from '../../../host/store/sqlite-conversation-store.ts';
import { databaseFileOf } from '../../../host/config/data-dir.ts';
import { ScriptedModel } from '../../../core/models/scripted/scripted-model.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a turn the process was killed in', () => {
  it('is closed as aborted when the host starts again, and a finished turn is left alone', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-interrupted-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    // The journal as a killed process leaves it: one finished turn, one that stopped mid-approval.
    const db = openDatabase({ file: databaseFileOf(dataDir) });
    const store = new SqliteConversationStore({ db });
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

    const host = await createHost({
      dataDir,
      transport: 'web',
      model: new ScriptedModel({ replies: [] }),
      log: () => {},
      version: 'test',
    });
    cleanups.push(() => host.dispose());
    const ends = host.store.loadEvents('c1').filter((event) => event.type === 'turn/end');
    expect(ends.map((event) => [event.turnId, event.type === 'turn/end' ? event.reason : ''])).toEqual([
      ['t1', 'done'],
      ['t2', 'aborted'],
    ]);
    expect(host.store.unfinishedTurns()).toEqual([]);
  });
});
