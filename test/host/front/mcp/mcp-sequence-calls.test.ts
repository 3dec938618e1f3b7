import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentEvent } from '../../../../core/events/agent-event.ts';
import type { Host } from '../../../../host/app/create-host.ts';
import { McpSession, MAX_CALLS_IN_FLIGHT } from '../../../../host/front/mcp/mcp-session.ts';
import { startSimProcess } from '../../../helpers/start-sim-process.ts';
import { textOf } from '../../../helpers/mcp-clients.ts';
import { devicesWhen, startTestHost, tempDataDir } from '../../devices/host-rig.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SLOW = 120_000;

type ToolEnd = Extract<AgentEvent, { type: 'tool/end' }>;

/** A host with one simulated relay board (relay__set asks the person), and an SDK client of one MCP session on it. */
async function relayHome(settings: { mcpApprovalWaitMs?: number; sequenceWallTimeMs?: number }) {
  const data = tempDataDir('home-agent-mcp-seq-');
  cleanups.push(() => data.remove());
  const relay = await startSimProcess({ kinds: ['relay'] });
  cleanups.push(() => relay.stop());
  const { host } = await startTestHost({
    dataDir: data.dir,
    devices: [{ path: relay.devices[0]!.path, profile: 'at-relay-4' }],
  });
  cleanups.push(() => host.dispose());
  if (settings.mcpApprovalWaitMs !== undefined) host.settingsStore.set('mcpApprovalWaitMs', settings.mcpApprovalWaitMs);
  if (settings.sequenceWallTimeMs !== undefined)
    host.settingsStore.set('sequenceWallTimeMs', settings.sequenceWallTimeMs);
  await devicesWhen(host, (devices) => devices.some((device) => device.id === 'relay-1' && device.online));
  const session = new McpSession(host, { version: 'test', log: () => undefined });
  cleanups.push(() => session.close());
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await session.server.connect(serverSide);
  const client = new Client({ name: 'sequence-client', version: '1.0.0' });
  await client.connect(clientSide);
  cleanups.push(() => client.close());
  const call = async (name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> =>
    (await client.callTool({ name, arguments: args }, undefined, {
      timeout: SLOW,
      ...(signal ? { signal } : {}),
    })) as CallToolResult;
  return { host, relay, call };
}

function relaySets(channels: number[]): { tool: string; args: Record<string, unknown> }[] {
  return channels.map((channel) => ({ tool: 'relay__set', args: { channel, on: true } }));
}

/** Resolves with the first event of the host that `test` accepts. */
function eventWhere<T extends AgentEvent>(host: Host, test: (event: AgentEvent) => event is T): Promise<T> {
  return new Promise((resolve) => {
    const stop = host.events.subscribe((event) => {
      if (!test(event)) return;
      stop();
      resolve(event);
    });
  });
}

const isSeqRunEnd = (event: AgentEvent): event is ToolEnd => event.type === 'tool/end' && event.name === 'seq_run';

describe('sequences run by an MCP client', () => {
  it(
    'count their questions against the session’s bound of 16 and wait mcpApprovalWaitMs, not five minutes',
    async () => {
      const { host, call } = await relayHome({ mcpApprovalWaitMs: 1000 });
      let open = 0;
      let mostOpen = 0;
      host.events.subscribe((event) => {
        if (event.type === 'approval/request') mostOpen = Math.max(mostOpen, ++open);
        if (event.type === 'approval/end' && event.why !== 'standing') open -= 1;
      });
      const saved = await call('seq_save', {
        name: 'all_on',
        description: 'Every channel on, eight times over.',
        groups: [{ id: 'on', calls: relaySets(Array.from({ length: 32 }, (_, index) => (index % 4) + 1)) }],
      });
      expect(saved.isError, textOf(saved)).toBeFalsy();

      // The attack of the issue: 16 runs of 32 calls that ask would be 512 questions open at once.
      const runs = await Promise.all(
        Array.from({ length: MAX_CALLS_IN_FLIGHT }, () => call('seq_run', { name: 'all_on' })),
      );
      expect(mostOpen).toBe(16);
      const inner = runs.flatMap((run) => {
        const report = run.structuredContent as {
          groups: { calls: { status: string; error: { detail: string } }[] }[];
        };
        return report.groups.flatMap((group) => group.calls);
      });
      expect(inner).toHaveLength(512);
      for (const refused of inner) expect(refused.status).toBe('refused');
      const details = new Set(inner.map((refused) => refused.error.detail));
      expect(details).toEqual(
        new Set([
          "Nobody answered within 1 s whether relay__set on relay-1 may run, so it did not run: it needs a person's approval.",
          'relay__set was not asked about: this MCP client already has 16 questions waiting for the person, the most one session may. It did not run.',
        ]),
      );
      for (const channel of [1, 2, 3, 4])
        expect((await call('relay__get', { channel })).structuredContent).toEqual({
          device_id: 'relay-1',
          result: { channel, on: false },
        });
    },
    SLOW,
  );

  it(
    'report a run stopped before any call inside it left as not_sent, never unknown',
    async () => {
      const { host, call } = await relayHome({ sequenceWallTimeMs: 1000 });
      await call('seq_save', {
        name: 'one_on',
        description: 'Channel 1 on.',
        groups: [{ id: 'on', calls: relaySets([1]) }],
      });
      const ended = eventWhere(host, isSeqRunEnd);
      // Nobody answers: the run's wall time (1 s) stops it while its only call waits for the person.
      const stopped = await call('seq_run', { name: 'one_on' });
      expect(stopped.isError).toBe(true);
      expect(JSON.parse(textOf(stopped))).toMatchObject({ error: { reason: 'timeout' }, outcome: 'not_sent' });
      expect(await ended).toMatchObject({ ok: false, outcome: 'not_sent' });
    },
    SLOW,
  );

  it(
    'report a run stopped after a call inside it left as unknown',
    async () => {
      const { host, relay, call } = await relayHome({});
      await call('seq_save', {
        name: 'two_on',
        description: 'Channel 1 on, then channel 2.',
        groups: [
          { id: 'first', calls: relaySets([1]) },
          { id: 'second', calls: relaySets([2]) },
        ],
      });
      const questions: Extract<AgentEvent, { type: 'approval/request' }>[] = [];
      let askedTwice!: () => void;
      const secondAsked = new Promise<void>((resolve) => (askedTwice = resolve));
      host.events.subscribe((event) => {
        if (event.type !== 'approval/request') return;
        questions.push(event);
        if (questions.length === 1)
          void host.handlers['approval/answer']({ approvalId: event.approvalId!, approved: true, remember: false });
        else askedTwice();
      });
      const ended = eventWhere(host, isSeqRunEnd);
      const stop = new AbortController();
      const running = call('seq_run', { name: 'two_on' }, stop.signal);
      await secondAsked;
      // The client gives up while the second call waits: the first one had switched channel 1.
      stop.abort();
      await expect(running).rejects.toThrow();
      expect(await ended).toMatchObject({ ok: false, outcome: 'unknown' });
      expect(await relay.waitForState('relay-1', () => true)).toEqual({ channels: [true, false, false, false] });
    },
    SLOW,
  );
});
