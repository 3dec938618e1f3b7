import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import type { Host } from '../../../host/app/create-host.ts';
import { openDatabase } from '../../../host/store/open-database.ts';
import { databaseFileOf } from '../../../host/config/data-dir.ts';
import { PendingApprovalStore } from '../../../host/store/pending-approval-store.ts';
import {
  MAX_FOLLOWED_QUESTIONS,
  OwnTurns,
  PendingApprovalsSync,
} from '../../../host/approvals/pending-approvals-sync.ts';
import { dataVersionOf } from '../../../host/store/data-version.ts';
import { startSimProcess, type SimProcess } from '../../helpers/start-sim-process.ts';
import { startTestHost, tempDataDir } from '../devices/host-rig.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type ApprovalRequest = Extract<AgentEvent, { type: 'approval/request' }>;

const switchRelayOne = { toolCalls: [{ id: 'call-1', name: 'relay__set', args: { channel: 1, on: true } }] };

/** The first event of `type` (of conversation `conversationId`) `host` sends its front ends from now on. */
function nextEvent<T extends AgentEvent['type']>(
  host: Host,
  type: T,
  conversationId: string,
): Promise<Extract<AgentEvent, { type: T }>> {
  return new Promise((resolve) => {
    const stop = host.events.subscribe((event) => {
      if (event.type !== type || event.conversationId !== conversationId) return;
      stop();
      resolve(event as Extract<AgentEvent, { type: T }>);
    });
  });
}

/** A host with a simulated AT relay (its set needs approval) that starts a turn switching relay 1, and waits for the question. */
async function askingHost(dataDir: string): Promise<{
  host: Host;
  sim: SimProcess;
  question: ApprovalRequest;
  turn: Promise<unknown>;
}> {
  const sim = await startSimProcess({ kinds: ['relay'] });
  cleanups.push(() => sim.stop());
  const { host } = await startTestHost({
    dataDir,
    approvalPolicy: 'ask',
    devices: [{ path: sim.devices[0]!.path, profile: 'at-relay-4' }],
    script: { replies: [switchRelayOne, { text: 'done' }] },
  });
  cleanups.push(() => host.dispose());
  const asked = nextEvent(host, 'approval/request', 'A');
  const turn = host.agent.runTurn({ conversationId: 'A', text: 'switch relay 1 on' });
  cleanups.push(async () => {
    host.agent.abort('A');
    await turn;
  });
  return { host, sim, question: await asked, turn };
}

describe('a question one host asks, answered in another host on the same data folder', () => {
  it('is shown in the other host with its turn, and that host’s answer lets the call run', async () => {
    const data = tempDataDir();
    cleanups.push(() => data.remove());
    const { host: window } = await startTestHost({ dataDir: data.dir });
    cleanups.push(() => window.dispose());
    const relayed: AgentEvent[] = [];
    window.events.subscribe((event) => relayed.push(event));
    const shown = nextEvent(window, 'approval/request', 'A');

    const asking = await askingHost(data.dir);
    const question = await shown;
    // The very question, with the turn that asked it, as the asking host journaled them.
    expect(question).toEqual(asking.question);
    expect(relayed.map((event) => event.type).slice(0, 3)).toEqual(['turn/start', 'step/start', 'request/header']);

    const ended = nextEvent(window, 'turn/end', 'A');
    expect(
      await window.handlers['approval/answer']({ approvalId: question.approvalId!, approved: true, remember: false }),
    ).toEqual({ accepted: true });
    await asking.turn;
    expect(
      await asking.sim.waitForState('relay-1', (state) => (state.channels as boolean[])[0] === true),
    ).toMatchObject({
      channels: [true, false, false, false],
    });
    expect(await ended).toMatchObject({ reason: 'done' });
    const toolEnd = relayed.find((event) => event.type === 'tool/end');
    expect(toolEnd).toMatchObject({ name: 'relay__set', ok: true, outcome: 'done' });
    expect(relayed.find((event) => event.type === 'approval/end')).toMatchObject({
      approvalId: question.approvalId,
      approved: true,
      why: 'answered',
    });
    // Answered once: a second answer finds no question.
    expect(
      await window.handlers['approval/answer']({ approvalId: question.approvalId!, approved: false, remember: false }),
    ).toMatchObject({ accepted: false });
  });

  it('is shown by a host that starts while it waits, which leaves the running turn open instead of repairing it', async () => {
    const data = tempDataDir();
    cleanups.push(() => data.remove());
    const asking = await askingHost(data.dir);
    const { host: window, log } = await startTestHost({ dataDir: data.dir });
    cleanups.push(() => window.dispose());
    expect(log.filter((line) => line.includes('closed'))).toEqual([]);
    const shown = await nextEvent(window, 'approval/request', 'A');
    expect(shown.approvalId).toBe(asking.question.approvalId);
    await window.handlers['approval/answer']({ approvalId: shown.approvalId!, approved: false, remember: false });
    await asking.turn;
    const ends = asking.host.store.loadEvents('A').filter((event) => event.type === 'turn/end');
    expect(ends).toHaveLength(1);
    expect(asking.host.store.loadEvents('A').find((event) => event.type === 'tool/end')).toMatchObject({
      ok: false,
      error: { reason: 'denied' },
      outcome: 'not_sent',
    });
  });
});

describe('PendingApprovalsSync', () => {
  it(`follows at most ${MAX_FOLLOWED_QUESTIONS} questions of other processes, however many rows the store holds`, () => {
    const data = tempDataDir();
    cleanups.push(() => data.remove());
    const writer = openDatabase({ file: databaseFileOf(data.dir) });
    cleanups.push(() => void writer.close());
    const reader = openDatabase({ file: databaseFileOf(data.dir) });
    cleanups.push(() => void reader.close());
    const others = new PendingApprovalStore({ db: writer });
    const now = Date.now();
    for (let index = 0; index < 1000; index += 1)
      others.open({
        approvalId: `q-${index}`,
        owner: 'another-host',
        conversationId: 'c',
        turnId: `t-${index}`,
        askedAt: now,
        expiresAt: now + 60_000,
      });
    const sync = new PendingApprovalsSync({
      store: new PendingApprovalStore({ db: reader }),
      journal: { loadTurnEventsAfter: () => [], turnStartsAfter: () => [], lastEventRow: () => 0 },
      ownTurns: new OwnTurns(),
      followOthers: true,
      owner: 'this-host',
      dataVersion: dataVersionOf(reader),
      relay: () => undefined,
      answerOwn: () => false,
      log: () => undefined,
    });
    cleanups.push(() => sync.dispose());
    expect(sync.check()).toBe(true);
    expect(sync.followedTurns).toBe(MAX_FOLLOWED_QUESTIONS);
    // Those questions end (their turns journal nothing yet), and the next ones are found: still bounded.
    for (let index = 0; index < MAX_FOLLOWED_QUESTIONS; index += 1) others.close(`q-${index}`);
    expect(sync.check()).toBe(true);
    expect(sync.followedTurns).toBe(MAX_FOLLOWED_QUESTIONS);
  });
  it('relays nothing of other processes in a host without windows (ask, mcp), and still hands it the answers to its own questions', () => {
    const data = tempDataDir();
    cleanups.push(() => data.remove());
    const writer = openDatabase({ file: databaseFileOf(data.dir) });
    cleanups.push(() => void writer.close());
    const reader = openDatabase({ file: databaseFileOf(data.dir) });
    cleanups.push(() => void reader.close());
    const others = new PendingApprovalStore({ db: writer });
    const now = Date.now();
    const question = (approvalId: string, owner: string) => ({
      approvalId,
      owner,
      conversationId: 'c',
      turnId: `turn-${approvalId}`,
      askedAt: now,
      expiresAt: now + 60_000,
    });
    others.open(question('theirs', 'another-host'));
    others.open(question('mine', 'this-host'));
    expect(others.answer({ approvalId: 'mine', approved: true, remember: false }, now)).toBe(true);
    const relayed: AgentEvent[] = [];
    const answered: string[] = [];
    const sync = new PendingApprovalsSync({
      store: new PendingApprovalStore({ db: reader }),
      journal: {
        loadTurnEventsAfter: () => [
          { seq: 1, event: { type: 'turn/start', text: 'x', model: 'm', at: now, conversationId: 'c', turnId: 't' } },
        ],
        turnStartsAfter: () => [{ row: 1, conversationId: 'c', turnId: 'started-elsewhere' }],
        lastEventRow: () => 0,
      },
      ownTurns: new OwnTurns(),
      followOthers: false,
      owner: 'this-host',
      dataVersion: dataVersionOf(reader),
      relay: (event) => relayed.push(event),
      answerOwn: (answer) => answered.push(answer.approvalId) > 0,
      log: () => undefined,
    });
    cleanups.push(() => sync.dispose());
    sync.start();
    expect(sync.check()).toBe(true);
    expect(answered).toEqual(['mine']);
    expect(sync.followedTurns).toBe(0);
    expect(relayed).toEqual([]);
  });
});
