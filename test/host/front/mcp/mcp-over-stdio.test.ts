import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../../core/events/agent-event.ts';
import { openDatabase } from '../../../../host/store/open-database.ts';
import { databaseFileOf } from '../../../../host/config/data-dir.ts';
import { SqliteConversationStore } from '../../../../host/store/sqlite-conversation-store.ts';
import { homeAgentCommand } from '../../../helpers/compiled-entries.ts';
import { REPO_ROOT, runCli } from '../../../helpers/run-cli.ts';
import { startSimProcess } from '../../../helpers/start-sim-process.ts';
import { connectOverStdio, textOf, type ConnectedClient } from '../../../helpers/mcp-clients.ts';
import { startTestHost, tempDataDir } from '../../devices/host-rig.ts';
import { everythingStdioEntry } from '../../../helpers/mcp/mcp-test-servers.ts';
import { untilToolListed } from '../../../helpers/mcp/until-tool-listed.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Starting `home-agent mcp` with simulated devices takes seconds on a busy machine. */
const SLOW = 120_000;

function dataFolder(): string {
  const data = tempDataDir('home-agent-mcp-');
  cleanups.push(() => data.remove());
  return data.dir;
}

async function mcp(args: string[], clientName?: string): Promise<ConnectedClient> {
  const connected = await connectOverStdio({ args, ...(clientName ? { clientName } : {}) });
  cleanups.push(() => connected.close());
  return connected;
}

/** The journal of a data folder, read after the server let go of it. */
function journalOf(dataDir: string): { titles: string[]; events: AgentEvent[] } {
  const db = openDatabase({ file: databaseFileOf(dataDir) });
  try {
    const store = new SqliteConversationStore({ db });
    const conversations = store.listConversations();
    return {
      titles: conversations.map((conversation) => conversation.title),
      events: conversations.flatMap((conversation) => store.loadEvents(conversation.id)),
    };
  } finally {
    db.close();
  }
}

describe('home-agent mcp, to the SDK’s own Client over stdio', () => {
  it(
    'lists the tools with both annotations set, switches a lamp, and journals each call as its own turn of "MCP: CLIENT"',
    async () => {
      const dataDir = dataFolder();
      const home = await mcp(['--sim', '--sim-latency-ms', '0', '--data-dir', dataDir], 'claude-ai');
      const { tools } = await home.client.listTools();
      const annotations = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
      // Hand-written from the simulated lamps' declarations: get only reads, set does not; neither asks.
      expect(annotations.lamp__set).toEqual({ readOnlyHint: false, destructiveHint: false });
      expect(annotations.lamp__get).toEqual({ readOnlyHint: true, destructiveHint: false });
      expect(annotations.thermometer__read).toEqual({ readOnlyHint: true, destructiveHint: false });
      for (const tool of tools) {
        expect(typeof tool.annotations?.readOnlyHint, tool.name).toBe('boolean');
        expect(typeof tool.annotations?.destructiveHint, tool.name).toBe('boolean');
      }

      const switched = await home.call('lamp__set', { device_id: 'lamp-1', on: true });
      expect(switched.isError).toBeFalsy();
      expect(switched.structuredContent).toEqual({ device_id: 'lamp-1', result: { on: true, brightness: 100 } });
      const [read, other] = await Promise.all([
        home.call('lamp__get', { device_id: 'lamp-1' }),
        home.call('lamp__get', { device_id: 'lamp-2' }),
      ]);
      expect(read.structuredContent).toEqual({ device_id: 'lamp-1', result: { on: true, brightness: 100 } });
      expect(other.structuredContent).toEqual({ device_id: 'lamp-2', result: { on: false, brightness: 100 } });
      // stdout carried nothing but the protocol: the client read every line.
      expect(home.errors).toEqual([]);
      await home.close();

      const { titles, events } = journalOf(dataDir);
      expect(titles).toEqual(['MCP: claude-ai']);
      const turns = new Set(events.map((event) => event.turnId));
      expect(turns.size).toBe(3);
      const ends = events.filter((event) => event.type === 'tool/end');
      expect(ends.map((event) => [event.name, event.ok, event.outcome])).toEqual([
        ['lamp__set', true, 'done'],
        ['lamp__get', true, 'done'],
        ['lamp__get', true, 'done'],
      ]);
      for (const end of ends) expect(end.runMs).toBeGreaterThanOrEqual(0);
      const verify = await runCli(['verify', '--data-dir', dataDir]);
      expect(verify.stdout).toContain('All checks hold.');
      expect(verify.code).toBe(0);
    },
    SLOW,
  );

  it(
    'shows each call live in a window of another process on the data folder, and never relays the window’s own turn back to it',
    async () => {
      const dataDir = dataFolder();
      const { host: window } = await startTestHost({ dataDir, script: { replies: [{ text: 'Hello.' }] } });
      cleanups.push(() => window.dispose());
      const seen: AgentEvent[] = [];
      let mcpTurnEnded!: () => void;
      const ended = new Promise<void>((resolve) => (mcpTurnEnded = resolve));
      window.events.subscribe((event) => {
        seen.push(event);
        if (event.type === 'turn/end' && event.conversationId !== 'W') mcpTurnEnded();
      });
      // The window's own turn, journaled before the MCP process writes anything.
      await window.agent.runTurn({ conversationId: 'W', text: 'hi' });
      const home = await mcp(['--sim', '--sim-latency-ms', '0', '--data-dir', dataDir], 'cursor');
      expect((await home.call('lamp__set', { device_id: 'lamp-1', on: true })).isError).toBeFalsy();
      await ended;

      const relayed = seen.filter((event) => event.conversationId !== 'W');
      expect(relayed.map((event) => event.type)).toEqual([
        'turn/start',
        'batch/start',
        'tool/start',
        'tool/end',
        'batch/end',
        'turn/end',
      ]);
      expect(relayed[0]).toMatchObject({ type: 'turn/start', text: 'cursor called lamp__set', model: 'MCP: cursor' });
      expect(relayed[3]).toMatchObject({ type: 'tool/end', name: 'lamp__set', ok: true, outcome: 'done' });
      const { conversations } = await window.handlers['conversations/list']({});
      expect(conversations.map((conversation) => conversation.title)).toContain('MCP: cursor');
      // The window's own turn reached its listeners once, as it ran.
      expect(seen.filter((event) => event.conversationId === 'W' && event.type === 'turn/start')).toHaveLength(1);
    },
    SLOW,
  );

  it(
    'serves the tools of the MCP servers of --mcp-config too, as the agent gets them: an untrusted server’s tool asks, so it is destructiveHint',
    async () => {
      const dataDir = dataFolder();
      const config = path.join(dataDir, 'servers.json');
      writeFileSync(config, JSON.stringify({ mcpServers: { everything: everythingStdioEntry() } }));
      const home = await mcp(['--sim', '--sim-latency-ms', '0', '--data-dir', dataDir, '--mcp-config', config]);
      // mcp answers before the server is ready; its tools come with tools/list_changed.
      const echo = await untilToolListed(home.client, 'mcp__everything__echo');
      expect(echo.annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
    },
    SLOW,
  );

  it(
    'refuses a call to a paired device nobody granted, through the same CanUse gate, naming the grant',
    async () => {
      const dataDir = dataFolder();
      const paired = await startSimProcess({ kinds: ['lamp'], ids: ['lamp-9'] });
      cleanups.push(() => paired.stop());
      const pairing = await runCli(['devices', 'pair', paired.devices[0]!.path, '--yes', '--data-dir', dataDir]);
      expect(pairing.code, pairing.stderr).toBe(0);
      const home = await mcp(['--sim', '--sim-latency-ms', '0', '--data-dir', dataDir]);
      const refused = await home.call('lamp__set', { device_id: 'lamp-9', on: true });
      expect(refused.isError).toBe(true);
      expect(JSON.parse(textOf(refused))).toMatchObject({ error: { reason: 'unauthorized' } });
      expect(textOf(refused)).toContain('the agent may not use set on lamp-9');
      await home.close();
      const end = journalOf(dataDir).events.find((event) => event.type === 'tool/end');
      expect(end).toMatchObject({ name: 'lamp__set', ok: false, outcome: 'not_sent' });
    },
    SLOW,
  );

  it(
    'asks a call that needs approval through the store, and runs it when a second process answers',
    async () => {
      const dataDir = dataFolder();
      const relay = await startSimProcess({ kinds: ['relay'] });
      cleanups.push(() => relay.stop());
      // The second process: a host on the same data folder (this test's own), as a window's would be.
      const { host: window } = await startTestHost({ dataDir });
      cleanups.push(() => window.dispose());
      const asked = new Promise<Extract<AgentEvent, { type: 'approval/request' }>>((resolve) =>
        window.events.subscribe((event) => event.type === 'approval/request' && resolve(event)),
      );
      const home = await mcp(['--device', `${relay.devices[0]!.path},profile=at-relay-4`, '--data-dir', dataDir]);
      const { tools } = await home.client.listTools();
      expect(tools.find((tool) => tool.name === 'relay__set')?.annotations).toEqual({
        readOnlyHint: false,
        destructiveHint: true,
      });

      const call = home.call('relay__set', { channel: 2, on: true });
      const question = await asked;
      expect(question).toMatchObject({ name: 'relay__set', args: { channel: 2, on: true }, deviceId: 'relay-1' });
      expect(
        await window.handlers['approval/answer']({ approvalId: question.approvalId!, approved: true, remember: false }),
      ).toEqual({ accepted: true });
      const result = await call;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ device_id: 'relay-1', result: { channel: 2, on: true } });
      expect(await relay.waitForState('relay-1', (state) => (state.channels as boolean[])[1] === true)).toEqual({
        channels: [false, true, false, false],
      });
    },
    SLOW,
  );

  it(
    'answers exactly the question an answer names: of two calls waiting, the one approved runs, the other is denied, and Always allow covers the next call',
    async () => {
      const dataDir = dataFolder();
      const relay = await startSimProcess({ kinds: ['relay'] });
      cleanups.push(() => relay.stop());
      const { host: window } = await startTestHost({ dataDir });
      cleanups.push(() => window.dispose());
      const questions: Extract<AgentEvent, { type: 'approval/request' }>[] = [];
      let bothAsked!: () => void;
      const asked = new Promise<void>((resolve) => (bothAsked = resolve));
      window.events.subscribe((event) => {
        if (event.type === 'approval/request' && questions.push(event) === 2) bothAsked();
      });
      const home = await mcp(['--device', `${relay.devices[0]!.path},profile=at-relay-4`, '--data-dir', dataDir]);
      const first = home.call('relay__set', { channel: 1, on: true });
      const second = home.call('relay__set', { channel: 2, on: true });
      await asked;
      const questionOf = (channel: number) => questions.find((question) => question.args.channel === channel)!;
      // Both questions are of one tool on one device, from one client: only their approvalIds tell them apart.
      expect(
        await window.handlers['approval/answer']({
          approvalId: questionOf(2).approvalId!,
          approved: true,
          remember: true,
        }),
      ).toEqual({ accepted: true });
      expect((await second).structuredContent).toEqual({ device_id: 'relay-1', result: { channel: 2, on: true } });
      expect(
        await window.handlers['approval/answer']({
          approvalId: questionOf(1).approvalId!,
          approved: false,
          remember: false,
        }),
      ).toEqual({ accepted: true });
      const denied = await first;
      expect(denied.isError).toBe(true);
      expect(JSON.parse(textOf(denied))).toMatchObject({ error: { reason: 'denied' } });
      // "Always allow" given in the window covers the MCP client's next call of that tool on that device: no question.
      const third = await home.call('relay__set', { channel: 3, on: true });
      expect(third.structuredContent).toEqual({ device_id: 'relay-1', result: { channel: 3, on: true } });
      expect(questions).toHaveLength(2);
      expect((await home.call('relay__get', { channel: 1 })).structuredContent).toEqual({
        device_id: 'relay-1',
        result: { channel: 1, on: false },
      });
    },
    SLOW,
  );

  it(
    'refuses that call when nobody answers within mcpApprovalWaitMs, saying how to allow it, and nothing is switched',
    async () => {
      const dataDir = dataFolder();
      const relay = await startSimProcess({ kinds: ['relay'] });
      cleanups.push(() => relay.stop());
      const home = await mcp([
        '--device',
        `${relay.devices[0]!.path},profile=at-relay-4`,
        '--data-dir',
        dataDir,
        '--mcp-approval-wait-ms',
        '1000',
      ]);
      const refused = await home.call('relay__set', { channel: 1, on: true });
      expect(refused.isError).toBe(true);
      const { error } = JSON.parse(textOf(refused)) as { error: { reason: string; detail: string; hint: string } };
      expect(error.reason).toBe('denied');
      expect(error.detail).toBe(
        "Nobody answered within 1 s whether relay__set on relay-1 may run, so it did not run: it needs a person's approval.",
      );
      expect(error.hint).toContain('"Always allow" there lets relay__set on relay-1 run without asking');
      const read = await home.call('relay__get', { channel: 1 });
      expect(read.structuredContent).toEqual({ device_id: 'relay-1', result: { channel: 1, on: false } });
      await home.close();
      const events = journalOf(dataDir).events;
      expect(events.find((event) => event.type === 'approval/end')).toMatchObject({ approved: false, why: 'timeout' });
      expect(events.find((event) => event.type === 'tool/end')).toMatchObject({ ok: false, outcome: 'not_sent' });
    },
    SLOW,
  );

  it(
    'runs at most 16 calls of one client at once: the 17th is answered at once without running',
    async () => {
      const dataDir = dataFolder();
      const relay = await startSimProcess({ kinds: ['relay'] });
      cleanups.push(() => relay.stop());
      const { host: window } = await startTestHost({ dataDir });
      cleanups.push(() => window.dispose());
      let questions = 0;
      let sixteen!: () => void;
      const allAsked = new Promise<void>((resolve) => (sixteen = resolve));
      window.events.subscribe((event) => {
        if (event.type === 'approval/request' && ++questions === 16) sixteen();
      });
      const home = await mcp(['--device', `${relay.devices[0]!.path},profile=at-relay-4`, '--data-dir', dataDir]);
      const waiting = Array.from({ length: 16 }, () => home.call('relay__set', { channel: 1, on: true }));
      await allAsked;
      const seventeenth = await home.call('relay__set', { channel: 1, on: true });
      expect(seventeenth.isError).toBe(true);
      expect(textOf(seventeenth)).toBe(
        'relay__set did not run: this client already has 16 calls running, the most one session may. Wait for one to finish, then call it again.',
      );
      // The client goes away: every waiting call stops, its turn is journaled as stopped, nothing switched.
      await home.close();
      await Promise.allSettled(waiting);
      const events = journalOf(dataDir).events;
      expect(events.filter((event) => event.type === 'turn/end').map((event) => event.reason)).toEqual(
        Array.from({ length: 16 }, () => 'aborted'),
      );
      expect((await runCli(['verify', '--data-dir', dataDir])).code).toBe(0);
    },
    SLOW,
  );

  it(
    'closes the session when a message is longer than 256 KiB, holding no more than that',
    async () => {
      const dataDir = dataFolder();
      const child = spawn(process.execPath, [...homeAgentCommand(), 'mcp', '--data-dir', dataDir], {
        cwd: REPO_ROOT,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stderr = '';
      let stdout = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      cleanups.push(() => void child.kill('SIGKILL'));
      // No newline: a reader without a bound would keep every byte.
      child.stdin.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"${'a'.repeat(300 * 1024)}`);
      expect(await exited).toBe(1);
      expect(stderr).toContain('an MCP message was longer than 262144 bytes: closing the session');
      expect(stdout).toBe('');
    },
    SLOW,
  );
});
