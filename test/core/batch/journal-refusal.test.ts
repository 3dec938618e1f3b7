import { afterEach, describe, expect, it } from 'vitest';
import { BatchRun } from '../../../core/batch/run-batch.ts';
import type { PreparedCall } from '../../../core/batch/run-tool-call.ts';
import type { AgentEvent, AgentEventInput } from '../../../core/events/agent-event.ts';
import { AgentEvents } from '../../../core/events/agent-events.ts';
import type { TurnScope } from '../../../core/events/turn-scope.ts';
import { openDatabase } from '../../../host/store/open-database.ts';
import { SqliteConversationStore } from '../../../host/store/sqlite-conversation-store.ts';
import { TempStoreFolder } from '../../host/store/temp-store-folder.ts';
import { tool } from './batch-helpers.ts';

const folders: TempStoreFolder[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) folder.dispose();
});

/** A turn journaled in a real SQLite store, as the host wires it: scope → AgentEvents → the store. */
function journaledTurn() {
  const folder = new TempStoreFolder();
  folders.push(folder);
  const db = folder.own(openDatabase({ file: folder.file() }));
  const store = new SqliteConversationStore({ db });
  store.ensureConversation('conv', 'test');
  const events = new AgentEvents({ journal: store });
  const seen: AgentEvent[] = [];
  events.subscribe((event) => seen.push(event));
  const scope: TurnScope = {
    conversationId: 'conv',
    turnId: 'turn',
    signal: new AbortController().signal,
    emit: (input: AgentEventInput) =>
      events.emit({ ...input, at: 1, conversationId: 'conv', turnId: 'turn' } as AgentEvent),
  };
  /** The store refuses every event of this type from now on (a real SQLite refusal, not a stand-in). */
  const refuse = (type: string): void =>
    void db.exec(
      `CREATE TRIGGER refuse_${type.replace('/', '_')} BEFORE INSERT ON events WHEN NEW.type = '${type}'
       BEGIN SELECT RAISE(ABORT, 'the test refuses ${type}'); END`,
    );
  const journaledTypes = (): string[] =>
    db.prepare<[], string>("SELECT type FROM events WHERE conversation_id = 'conv' ORDER BY seq").pluck().all();
  return { db, scope, seen, refuse, journaledTypes };
}

function relayCall(index: number, ran: string[]): PreparedCall {
  return {
    index,
    callId: `call_${index}`,
    name: 'relay__switch',
    args: { on: true },
    tool: tool('relay__switch', { handler: () => void ran.push(`call_${index}`) }),
  };
}

const notJournaled = (what: string) => ({
  ok: false,
  error: {
    reason: 'aborted',
    detail: `relay__switch did not run: the journal could not record its ${what}, and nothing may happen in the home that is not recorded.`,
    hint: 'Check the disk of the data folder (its free space and permissions), then ask again.',
  },
});

describe('a call whose start the journal could not record never runs', () => {
  it('answers every call not_sent when batch/start cannot be journaled', async () => {
    const turn = journaledTurn();
    const ran: string[] = [];
    turn.refuse('batch/start');
    const batch = new BatchRun({ scope: turn.scope, batchId: 'b1', step: 1, pipeline: { defaultTimeoutMs: 10_000 } });
    const results = await batch.finish([relayCall(0, ran), relayCall(1, ran)]);
    expect(ran).toEqual([]);
    expect(results.map((result) => [result.callOutcome, result.outcome])).toEqual([
      ['not_sent', notJournaled('batch/start')],
      ['not_sent', notJournaled('batch/start')],
    ]);
    // Nothing claims the calls started; each still has its answer (broadcast, and journaled when the journal takes it).
    expect(turn.seen.filter((event) => event.type === 'tool/start')).toEqual([]);
    expect(turn.journaledTypes()).toEqual(['batch/open', 'tool/end', 'tool/end', 'batch/end']);
  });

  it('answers a call not_sent when its tool/start cannot be journaled, and the batch goes on', async () => {
    const turn = journaledTurn();
    const ran: string[] = [];
    turn.refuse('tool/start');
    const batch = new BatchRun({ scope: turn.scope, batchId: 'b1', step: 1, pipeline: { defaultTimeoutMs: 10_000 } });
    const results = await batch.finish([relayCall(0, ran)], { forceSerial: true });
    expect(ran).toEqual([]);
    expect(results[0]).toMatchObject({ callOutcome: 'not_sent', outcome: notJournaled('tool/start') });
  });

  it('never starts an early call whose tool/start cannot be journaled', async () => {
    const turn = journaledTurn();
    const ran: string[] = [];
    turn.refuse('tool/start');
    const batch = new BatchRun({ scope: turn.scope, batchId: 'b1', step: 1, pipeline: { defaultTimeoutMs: 10_000 } });
    const early = relayCall(0, ran);
    batch.offer(early);
    const results = await batch.finish([early]);
    expect(ran).toEqual([]);
    expect(results[0]).toMatchObject({ callOutcome: 'not_sent', outcome: notJournaled('tool/start') });
  });

  it('answers not_sent on a closed store too, where every write fails', async () => {
    const turn = journaledTurn();
    const ran: string[] = [];
    turn.db.close();
    const batch = new BatchRun({ scope: turn.scope, batchId: 'b1', step: 1, pipeline: { defaultTimeoutMs: 10_000 } });
    const results = await batch.finish([relayCall(0, ran)]);
    expect(ran).toEqual([]);
    expect(results[0]!.callOutcome).toBe('not_sent');
  });
});
