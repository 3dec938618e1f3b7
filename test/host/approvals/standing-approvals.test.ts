import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import { openDatabase } from '../../../host/store/open-database.ts';
import { databaseFileOf } from '../../../host/config/data-dir.ts';
import { StandingApprovalStore } from '../../../host/store/standing-approval-store.ts';
import { jsonLines, runCli } from '../../helpers/run-cli.ts';
import { startSimProcess } from '../../helpers/start-sim-process.ts';
import { devicesWhen, startTestHost, tempDataDir } from '../devices/host-rig.ts';
import { useOwnSimIndex } from '../../helpers/own-sim-index.ts';

// The window's API pairs only ports a running simulator announced: this file's simulators announce
// theirs in an index of its own, which the in-process host reads too.
const index = useOwnSimIndex();

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const RELAY_IDENTITY = (id: string) => ({ id, kind: 'relay', model: 'AT-RELAY-4', firmware: '1.4.0' });
const switchOn = (deviceId: string) => [
  { toolCalls: [{ name: 'relay__set', args: { device_id: deviceId, channel: 1, on: true } }] },
  { text: 'done' },
];

/** Two paired relay boards, both granted `set`, a host that asks the person, and what each turn did. */
async function setup(turns: string[]) {
  const data = tempDataDir();
  cleanups.push(() => data.remove());
  const sim = await startSimProcess({ kinds: ['relay', 'relay'], env: { HOME_AGENT_SIM_INDEX: index } });
  cleanups.push(() => sim.stop());
  const { host, notices } = await startTestHost({
    dataDir: data.dir,
    approvalPolicy: 'ask',
    script: { replies: turns.flatMap(switchOn) },
  });
  cleanups.push(() => host.dispose());
  for (const device of sim.devices) {
    await host.handlers['devices/pair']({
      path: device.path,
      profile: 'at-relay-4',
      identity: RELAY_IDENTITY(device.id),
    });
    await host.handlers['devices/grant']({ deviceId: device.id, actions: ['set'] });
  }
  await devicesWhen(host, (devices) => devices.filter((device) => device.online).length === 2);
  /** Runs one turn, answering its question (if one is asked) with `answer`; returns the turn's events. */
  const turn = async (answer: { approved: boolean; remember?: boolean } | undefined): Promise<AgentEvent[]> => {
    const events: AgentEvent[] = [];
    const stop = host.events.subscribe((event) => {
      events.push(event);
      if (event.type === 'approval/request' && answer)
        void host.handlers['approval/answer']({ approvalId: event.approvalId!, ...answer });
    });
    await host.agent.runTurn({ conversationId: `c-${Math.random()}`, text: 'switch' });
    stop();
    return events;
  };
  return { host, notices, turn, dataDir: data.dir, sim };
}

function summary(events: AgentEvent[]) {
  const asked = events.some((event) => event.type === 'approval/request');
  const end = events.find((event) => event.type === 'approval/end');
  const tool = events.find((event) => event.type === 'tool/end');
  return {
    asked,
    why: end?.type === 'approval/end' ? end.why : undefined,
    ok: tool?.type === 'tool/end' ? tool.ok : undefined,
  };
}

describe('standing approvals ("Always allow")', () => {
  it('let the next call of that tool on that device run unasked, journaled as approved by it, and no other', async () => {
    const { host, notices, turn } = await setup(['relay-1', 'relay-1', 'relay-2']);
    const first = await turn({ approved: true, remember: true });
    expect(summary(first)).toEqual({ asked: true, why: 'answered', ok: true });
    expect(first.find((event) => event.type === 'approval/request')).toMatchObject({ deviceId: 'relay-1' });
    expect(first.find((event) => event.type === 'approval/end')).toMatchObject({ remembered: true });
    expect(notices).toContainEqual({ type: 'approvals/changed' });
    expect((await host.handlers['approvals/list']({})).approvals).toEqual([
      { tool: 'relay__set', deviceId: 'relay-1', createdAt: expect.any(Number) },
    ]);
    const { devices } = await host.handlers['devices/list']({});
    expect(devices.find((device) => device.id === 'relay-1')?.alwaysAllowed).toEqual(['set']);

    const second = await turn(undefined);
    expect(summary(second)).toEqual({ asked: false, why: 'standing', ok: true });
    expect(second.find((event) => event.type === 'approval/end')).toMatchObject({
      name: 'relay__set',
      deviceId: 'relay-1',
      approved: true,
    });
    const journaled = host.store.loadEvents(second[0]!.conversationId).find((event) => event.type === 'approval/end');
    expect(journaled).toMatchObject({ why: 'standing', approved: true });

    // The other board is another device: still asked.
    expect(summary(await turn({ approved: false }))).toEqual({ asked: true, why: 'answered', ok: false });
  });

  it('asks again once it is revoked, here or by another process on the same data folder', async () => {
    const { host, turn, dataDir } = await setup(['relay-1', 'relay-1', 'relay-1', 'relay-1']);
    await turn({ approved: true, remember: true });
    expect(await host.handlers['approvals/revoke']({ tool: 'relay__set', deviceId: 'relay-1' })).toEqual({
      revoked: true,
    });
    expect(summary(await turn({ approved: true, remember: true }))).toMatchObject({ asked: true });
    expect(summary(await turn(undefined))).toMatchObject({ asked: false, why: 'standing' });
    const other = openDatabase({ file: databaseFileOf(dataDir) });
    cleanups.push(() => void other.close());
    expect(new StandingApprovalStore({ db: other }).revoke({ tool: 'relay__set', deviceId: 'relay-1' })).toBe(true);
    expect(summary(await turn({ approved: false }))).toEqual({ asked: true, why: 'answered', ok: false });
  });

  it('Allow once remembers nothing', async () => {
    const { host, turn } = await setup(['relay-1', 'relay-1']);
    await turn({ approved: true });
    expect((await host.handlers['approvals/list']({})).approvals).toEqual([]);
    expect(summary(await turn({ approved: false }))).toMatchObject({ asked: true, ok: false });
  });
});

describe('ask without a terminal', () => {
  it('says that it does not prompt and how to allow the call, and honours a standing approval of the data folder', async () => {
    const data = tempDataDir();
    cleanups.push(() => data.remove());
    const sim = await startSimProcess({ kinds: ['relay'], env: { HOME_AGENT_SIM_INDEX: index } });
    cleanups.push(() => sim.stop());
    const path = sim.devices[0]!.path;
    const pair = await runCli(['devices', 'pair', path, '--profile', 'at-relay-4', '--yes', '--data-dir', data.dir]);
    expect(pair.code).toBe(0);
    await runCli(['devices', 'grant', 'relay-1', 'set', '--data-dir', data.dir]);
    const script = `${data.dir}/script.json`;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(script, JSON.stringify({ replies: switchOn('relay-1') }));
    const ask = () =>
      runCli(['ask', '--provider', 'scripted', '--script', script, '--data-dir', data.dir, '--json', 'switch it on']);

    const denied = jsonLines((await ask()).stdout).find((event) => event.type === 'tool/end');
    expect(denied).toMatchObject({ ok: false, error: { reason: 'denied' } });
    expect((denied?.error as { detail: string }).detail).toContain(
      'does not prompt when it does not run in a terminal',
    );
    expect((denied?.error as { hint: string }).hint).toContain('--approve-all');

    const db = openDatabase({ file: databaseFileOf(data.dir) });
    new StandingApprovalStore({ db }).add({ tool: 'relay__set', deviceId: 'relay-1' });
    db.close();
    const allowed = jsonLines((await ask()).stdout);
    expect(allowed.find((event) => event.type === 'approval/end')).toMatchObject({ why: 'standing', approved: true });
    expect(allowed.find((event) => event.type === 'tool/end')).toMatchObject({ ok: true });
  });
});
