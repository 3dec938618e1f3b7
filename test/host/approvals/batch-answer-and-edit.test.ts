import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import type { Host } from '../../../host/app/create-host.ts';
import { apiContract } from '../../../host/contract/api-contract.ts';
import { startSimProcess, type SimProcess } from '../../helpers/start-sim-process.ts';
import { devicesWhen, startTestHost, tempDataDir } from '../devices/host-rig.ts';
import { useOwnSimIndex } from '../../helpers/own-sim-index.ts';

const index = useOwnSimIndex();

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type ApprovalRequest = Extract<AgentEvent, { type: 'approval/request' }>;

const NO_SUCH_QUESTION =
  'No such question is waiting for an answer: it may have been answered elsewhere, timed out, or its turn was stopped.';

/**
 * A simulated AT relay board (its `set` declares `confirm`: the person is asked), paired and
 * granted in a host with a real store that asks; one reply asks `calls`, and the test gets each
 * question once all of them wait.
 */
async function waitingRelays(calls: Record<string, unknown>[]): Promise<{
  host: Host;
  sim: SimProcess;
  events: AgentEvent[];
  questions: ApprovalRequest[];
  turn: Promise<unknown>;
}> {
  const data = tempDataDir();
  cleanups.push(() => data.remove());
  const sim = await startSimProcess({ kinds: ['relay'], env: { HOME_AGENT_SIM_INDEX: index } });
  cleanups.push(() => sim.stop());
  const { host } = await startTestHost({
    dataDir: data.dir,
    approvalPolicy: 'ask',
    script: {
      replies: [{ toolCalls: calls.map((args) => ({ name: 'relay__set', args })) }, { text: 'done' }],
    },
  });
  cleanups.push(() => host.dispose());
  const device = sim.devices[0]!;
  await host.handlers['devices/pair']({
    path: device.path,
    profile: 'at-relay-4',
    identity: { id: device.id, kind: 'relay', model: 'AT-RELAY-4', firmware: '1.4.0' },
  });
  await host.handlers['devices/grant']({ deviceId: device.id, actions: ['set'] });
  await devicesWhen(host, (devices) => devices.some((paired) => paired.online));
  const events: AgentEvent[] = [];
  host.events.subscribe((event) => events.push(event));
  const allAsked = new Promise<ApprovalRequest[]>((resolve) => {
    const asked: ApprovalRequest[] = [];
    const stop = host.events.subscribe((event) => {
      if (event.type !== 'approval/request') return;
      asked.push(event);
      if (asked.length < calls.length) return;
      stop();
      resolve(asked.sort((left, right) => left.index - right.index));
    });
  });
  const turn = host.agent.runTurn({ conversationId: 'c1', text: 'switch them' });
  cleanups.push(async () => {
    host.agent.abort('c1');
    await turn;
  });
  return { host, sim, events, questions: await allAsked, turn };
}

const channel = (number: number, on = true) => ({ device_id: 'relay-1', channel: number, on });

describe('one answer for a batch (approval/answer with approvalIds)', () => {
  it('allows exactly the questions it names: three of four run, the fourth still waits and is answered alone', async () => {
    const { host, sim, events, questions, turn } = await waitingRelays([1, 2, 3, 4].map((number) => channel(number)));
    expect(questions.map((question) => question.index)).toEqual([0, 1, 2, 3]);
    const ids = questions.map((question) => question.approvalId!);
    expect(await host.handlers['approval/answer']({ approvalIds: ids.slice(0, 3), approved: true })).toEqual({
      accepted: true,
      answered: ids.slice(0, 3),
    });
    // The simulator process, the independent witness: channels 1–3 on, 4 untouched.
    expect(
      await sim.waitForState('relay-1', (state) => (state.channels as boolean[]).filter(Boolean).length === 3),
    ).toEqual({ channels: [true, true, true, false] });
    // The fourth's question is still open and answered on its own.
    expect(events.filter((event) => event.type === 'approval/end').map((event) => event.approvalId)).toEqual(
      expect.arrayContaining(ids.slice(0, 3)),
    );
    expect(events.some((event) => event.type === 'approval/end' && event.approvalId === ids[3])).toBe(false);
    expect(await host.handlers['approval/answer']({ approvalId: ids[3]!, approved: false })).toEqual({
      accepted: true,
    });
    await turn;
    const ends = events.filter((event) => event.type === 'tool/end');
    expect(ends.map((event) => [event.index, event.ok])).toEqual(
      expect.arrayContaining([
        [0, true],
        [1, true],
        [2, true],
        [3, false],
      ]),
    );
  });

  it('says which questions no longer waited, and answers the others', async () => {
    const { host, sim, questions } = await waitingRelays([channel(1), channel(2)]);
    const ids = questions.map((question) => question.approvalId!);
    expect(await host.handlers['approval/answer']({ approvalId: ids[0]!, approved: false })).toEqual({
      accepted: true,
    });
    const answer = await host.handlers['approval/answer']({ approvalIds: ids, approved: true });
    expect(answer).toEqual({ accepted: false, answered: [ids[1]], message: expect.stringContaining(ids[0]!) });
    expect(await sim.waitForState('relay-1', (state) => (state.channels as boolean[])[1] === true)).toEqual({
      channels: [false, true, false, false],
    });
  });

  it('refuses, at the contract, an answer naming no question, both forms, a question twice, or Always allow for several', () => {
    const input = apiContract['approval/answer'].input;
    const issue = (value: unknown) => {
      const parsed = input.safeParse(value);
      return parsed.success
        ? undefined
        : { path: parsed.error.issues[0]?.path, message: parsed.error.issues[0]?.message };
    };
    expect(issue({ approved: true })).toEqual({
      path: ['approvalId'],
      message:
        'missing: name the question by the approvalId of its approval/request (a call id does not name a question)',
    });
    expect(issue({ approvalId: 'a', approvalIds: ['b'], approved: true })?.path).toEqual(['approvalIds']);
    expect(issue({ approvalIds: ['a', 'a'], approved: true })?.message).toContain('names a question twice');
    expect(issue({ approvalIds: [], approved: true })?.path).toEqual(['approvalIds']);
    expect(issue({ approvalIds: ['a', 'b'], approved: true, remember: true })?.path).toEqual(['remember']);
    expect(issue({ approvalIds: ['a', 'b'], approved: true, args: {} })?.path).toEqual(['args']);
    expect(issue({ approvalId: 'a', approved: false, args: {} })?.path).toEqual(['args']);
    expect(issue({ approvalId: 'a', approved: true, remember: true, args: {} })?.path).toEqual(['remember']);
    expect(issue({ approvalIds: ['a', 'b'], approved: false })).toBeUndefined();
  });
});

describe('change the arguments, then allow (approval/answer with args)', () => {
  it('runs the call with the edited arguments, journals both, and tells the model what the person changed', async () => {
    const { host, sim, events, questions, turn } = await waitingRelays([channel(2)]);
    const approvalId = questions[0]!.approvalId!;
    // Every check again: the device stays, the schema holds.
    expect(
      await host.handlers['approval/answer']({
        approvalId,
        approved: true,
        args: { ...channel(3), device_id: 'relay-2' },
      }),
    ).toEqual({ accepted: false, message: expect.stringContaining('device_id cannot be edited') });
    expect(await host.handlers['approval/answer']({ approvalId, approved: true, args: channel(9) })).toEqual({
      accepted: false,
      message: expect.stringContaining('channel'),
    });
    expect(await host.handlers['approval/answer']({ approvalId: 'nobody', approved: true, args: channel(3) })).toEqual({
      accepted: false,
      message: expect.stringContaining(NO_SUCH_QUESTION),
    });
    // Still open after the refused edits; the good one is taken.
    expect(await host.handlers['approval/answer']({ approvalId, approved: true, args: channel(3) })).toEqual({
      accepted: true,
    });
    await turn;
    // The simulator process: channel 3 switched, never channel 2.
    expect(await sim.waitForState('relay-1', (state) => (state.channels as boolean[])[2] === true)).toEqual({
      channels: [false, false, true, false],
    });
    expect(events.find((event) => event.type === 'approval/end')).toMatchObject({ approved: true, edited: true });
    const starts = events.filter((event) => event.type === 'tool/start');
    expect(starts.at(-1)).toMatchObject({ args: channel(3), modelArgs: channel(2) });
    const end = events.find((event) => event.type === 'tool/end');
    expect(end).toMatchObject({
      ok: true,
      result: { personChangedArguments: { asked: channel(2), ran: channel(3) } },
    });
    // The journal keeps both.
    const journal = host.store.loadEvents('c1');
    expect(journal.find((event) => event.type === 'tool/start' && event.modelArgs !== undefined)).toMatchObject({
      args: channel(3),
      modelArgs: channel(2),
    });
  });

  it('an edit equal to what the model asked is a plain approval, and Always allow is never remembered for an edit', async () => {
    const { host, events, questions, turn } = await waitingRelays([channel(2)]);
    expect(
      await host.handlers['approval/answer']({
        approvalId: questions[0]!.approvalId!,
        approved: true,
        args: channel(2),
      }),
    ).toEqual({ accepted: true });
    await turn;
    expect(events.find((event) => event.type === 'approval/end')).not.toHaveProperty('edited');
    expect(events.filter((event) => event.type === 'tool/start' && event.modelArgs !== undefined)).toEqual([]);
    expect((await host.handlers['approvals/list']({})).approvals).toEqual([]);
  });
});
