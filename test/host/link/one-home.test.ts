// One host per home: with `serve` running (the window's case here), `home-agent mcp` and `ask` on the
// same data folder go through it — its devices, grants and journal — instead of opening their own.
// The serve child's simulated devices live in its process only: a command that hosted its own home
// (no --sim) would have no lamp at all, so seeing and switching the lamp proves the route.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectOverStdio, textOf, type ConnectedClient } from '../../helpers/mcp-clients.ts';
import { startServeChild, type ServeChild } from '../../helpers/serve-child.ts';
import { askScripted, jsonLines, REPO_ROOT, runCli } from '../../helpers/run-cli.ts';
import { homeAgentCommand } from '../../helpers/compiled-entries.ts';
import { startSimProcess } from '../../helpers/start-sim-process.ts';
import { findExecutable } from '../../../host/devices/find-executable.ts';
import { runningHostApi } from '../../../host/front/cli/commands/devices-through-host.ts';

const hasSocat = findExecutable('socat') !== undefined;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function dataFolder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ha-one-home-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function serve(dataDir: string, args: string[] = ['--sim']): Promise<ServeChild> {
  const served = await startServeChild([...args, '--data-dir', dataDir]);
  cleanups.push(() => served.stop());
  return served;
}

async function mcp(args: string[]): Promise<ConnectedClient> {
  const client = await connectOverStdio({ args, clientName: 'claude-ai' });
  cleanups.push(() => client.close());
  return client;
}

describe('one host per home', () => {
  it('serves home-agent mcp beside a running serve from that host: its devices, its journal', async () => {
    const dataDir = dataFolder();
    const host = await serve(dataDir);
    const client = await mcp(['--data-dir', dataDir]);
    const tools = (await client.client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toContain('lamp__set');
    const result = await client.call('lamp__set', { device_id: 'lamp-1', on: true });
    expect(result.isError).not.toBe(true);
    expect(JSON.parse(textOf(result))).toEqual({ device_id: 'lamp-1', result: { on: true, brightness: 100 } });
    expect(client.stderr()).toContain('using the running host: home-agent serve');
    // The call is the host's: journaled in its store, shown in its window's list by the client's name.
    const listed = (await host.api('conversations/list')) as { conversations: { title: string }[] };
    expect(listed.conversations.map((conversation) => conversation.title)).toContain('MCP: claude-ai');
    const socket = statSync(path.join(dataDir, 'host.sock'));
    expect(socket.isSocket()).toBe(true);
    expect(socket.mode & 0o777).toBe(0o600);
  }, 120_000);

  it.skipIf(!hasSocat)(
    'drives a paired serial device the running serve holds, from home-agent mcp (what Claude Desktop starts)',
    async () => {
      const dataDir = dataFolder();
      const index = dataFolder();
      const environment = { HOME_AGENT_SIM_INDEX: index, HOME_AGENT_NO_OLLAMA_PROBE: '1' };
      const sim = await startSimProcess({ kinds: ['lamp'], env: { HOME_AGENT_SIM_INDEX: index } });
      cleanups.push(() => sim.stop());
      const lamp = sim.devices[0]!;
      for (const args of [
        ['devices', 'pair', lamp.path, '--yes'],
        ['devices', 'grant', lamp.id, 'set', 'get'],
      ]) {
        const run = await runCli([...args, '--data-dir', dataDir], { env: environment });
        expect(run.code, run.stderr).toBe(0);
      }
      process.env.HOME_AGENT_SIM_INDEX = index;
      cleanups.push(() => void delete process.env.HOME_AGENT_SIM_INDEX);
      await serve(dataDir, []);
      const client = await mcp(['--data-dir', dataDir]);
      const result = await client.call('lamp__set', { device_id: lamp.id, on: true });
      expect(textOf(result)).not.toContain('device_offline');
      expect(JSON.parse(textOf(result))).toMatchObject({ device_id: lamp.id, result: { on: true } });
      // Pairing it again goes through the host that holds its port (alone, the port would be busy).
      const again = await runCli(['devices', 'pair', lamp.path, '--yes', '--data-dir', dataDir], { env: environment });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain('home-agent serve');
      expect(again.stdout).toContain(`${lamp.id} is paired already`);
      expect(again.stdout).toContain(`Paired ${lamp.id}`);
    },
    120_000,
  );

  it.skipIf(!hasSocat)(
    "holds an MCP client's call to a lock until the person answers in the window with the approval PIN",
    async () => {
      const dataDir = dataFolder();
      const index = dataFolder();
      const environment = { HOME_AGENT_SIM_INDEX: index, HOME_AGENT_NO_OLLAMA_PROBE: '1' };
      const sim = await startSimProcess({ kinds: ['lock'], env: { HOME_AGENT_SIM_INDEX: index } });
      cleanups.push(() => sim.stop());
      const lock = sim.devices[0]!;
      for (const args of [
        ['devices', 'pair', lock.path, '--yes'],
        ['devices', 'grant', lock.id, 'set', 'get'],
      ]) {
        const run = await runCli([...args, '--data-dir', dataDir], { env: environment });
        expect(run.code, run.stderr).toBe(0);
      }
      process.env.HOME_AGENT_SIM_INDEX = index;
      cleanups.push(() => void delete process.env.HOME_AGENT_SIM_INDEX);
      const host = await serve(dataDir, []);
      await host.api('pin/set', { pin: '2468' });
      // The window's side: every event of the host, as its page gets them (the home's api door).
      const window = await runningHostApi(dataDir);
      if (!window) throw new Error('serve holds no home socket');
      cleanups.push(() => window.api.close());
      const asked = new Promise<{ approvalId: string; needsPin?: boolean }>((resolve) => {
        window.api.onEvent = (event) => {
          const value = event as { type: string; approvalId: string; needsPin?: boolean };
          if (value.type === 'approval/request') resolve(value);
        };
      });
      const client = await mcp(['--data-dir', dataDir]);
      const call = client.call('lock__set', { device_id: lock.id, locked: false });
      const question = await asked;
      expect(question.needsPin).toBe(true);
      // A wrong PIN leaves the question open; the right one lets the call run.
      await expect(
        window.api.call('approval/answer', { approvalId: question.approvalId, approved: true, pin: '0000' }),
      ).resolves.toMatchObject({ accepted: false });
      await window.api.call('approval/answer', { approvalId: question.approvalId, approved: true, pin: '2468' });
      const result = await call;
      expect(result.isError).not.toBe(true);
      expect(JSON.parse(textOf(result))).toMatchObject({ device_id: lock.id, result: { locked: false } });
    },
    180_000,
  );

  it('runs ask beside a running serve as a turn of that host, with its own scripted model', async () => {
    const dataDir = dataFolder();
    await serve(dataDir);
    const script = path.join(dataDir, 'script.json');
    writeFileSync(
      script,
      JSON.stringify({
        replies: [{ toolCalls: [{ name: 'lamp__set', args: { device_id: 'lamp-2', on: true } }] }, { text: 'On.' }],
      }),
    );
    const run = await askScripted({ script, dataDir }, 'turn on lamp 2');
    expect(run.code).toBe(0);
    const ends = jsonLines(run.stdout).filter((event) => event.type === 'tool/end');
    expect(ends).toMatchObject([
      { name: 'lamp__set', ok: true, result: { device_id: 'lamp-2', result: { on: true } } },
    ]);
    expect(jsonLines(run.stdout).at(-1)).toMatchObject({ type: 'turn/end', reason: 'done' });
  }, 120_000);

  it.skipIf(!hasSocat)(
    "answers ask's questions as its own command line says, for its own turn only",
    async () => {
      const dataDir = dataFolder();
      const index = dataFolder();
      const environment = { HOME_AGENT_SIM_INDEX: index, HOME_AGENT_NO_OLLAMA_PROBE: '1' };
      const sim = await startSimProcess({ kinds: ['relay'], env: { HOME_AGENT_SIM_INDEX: index } });
      cleanups.push(() => sim.stop());
      const relay = sim.devices[0]!;
      for (const args of [
        ['devices', 'pair', relay.path, '--profile', 'at-relay-4', '--yes'],
        ['devices', 'grant', relay.id, 'set'],
      ]) {
        const run = await runCli([...args, '--data-dir', dataDir], { env: environment });
        expect(run.code, run.stderr).toBe(0);
      }
      process.env.HOME_AGENT_SIM_INDEX = index;
      cleanups.push(() => void delete process.env.HOME_AGENT_SIM_INDEX);
      // serve asks the person (its own policy): only the turn's own answer decides without a window.
      await serve(dataDir, []);
      const script = path.join(dataDir, 'script.json');
      writeFileSync(
        script,
        JSON.stringify({
          replies: [
            { toolCalls: [{ name: 'relay__set', args: { device_id: relay.id, channel: 1, on: true } }] },
            { text: 'Switched.' },
          ],
        }),
      );
      const allowed = await askScripted({ script, dataDir, args: ['--approve-all'], env: environment }, 'relay on');
      expect(allowed.code, allowed.stderr).toBe(0);
      expect(jsonLines(allowed.stdout).find((event) => event.type === 'tool/end')).toMatchObject({ ok: true });
      // The next ask from a script (no terminal, no --approve-all) cannot be asked: denied at once, saying why.
      const denied = await askScripted({ script, dataDir, env: environment }, 'relay on again');
      expect(jsonLines(denied.stdout).find((event) => event.type === 'tool/end')).toMatchObject({
        ok: false,
        outcome: 'not_sent',
        error: { reason: 'denied' },
      });
      expect(denied.stdout).toContain('home-agent ask does not prompt when it does not run in a terminal');
    },
    180_000,
  );

  it('stops the turn in the host on Ctrl+C, and ends as the host ended it', async () => {
    const dataDir = dataFolder();
    await serve(dataDir, ['--sim', '--sim-latency-ms', '60000']);
    const script = path.join(dataDir, 'script.json');
    writeFileSync(
      script,
      JSON.stringify({
        replies: [{ toolCalls: [{ name: 'lamp__set', args: { device_id: 'lamp-1', on: true } }] }, { text: 'On.' }],
      }),
    );
    const child = spawn(
      process.execPath,
      [
        ...homeAgentCommand(),
        'ask',
        '--provider',
        'scripted',
        '--script',
        script,
        '--data-dir',
        dataDir,
        '--json',
        'on',
      ],
      { cwd: REPO_ROOT, env: { ...process.env, HOME_AGENT_NO_OLLAMA_PROBE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let stdout = '';
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('"type":"tool/start"')) resolve();
      }),
    );
    child.kill('SIGINT');
    expect(await exited).toBe(1);
    const events = jsonLines(stdout);
    expect(events.find((event) => event.type === 'tool/end')).toMatchObject({ name: 'lamp__set', ok: false });
    expect(events.at(-1)).toMatchObject({ type: 'turn/end', reason: 'aborted' });
  }, 120_000);

  it('refuses flags that would shape a home of its own beside a running host, naming --standalone', async () => {
    const dataDir = dataFolder();
    await serve(dataDir);
    const run = await runCli(['ask', '--sim', '--data-dir', dataDir, 'hello'], { timeoutMs: 60_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--sim would shape a home of this process');
    expect(run.stderr).toContain('--standalone');
  }, 120_000);

  it('refuses a second serve of the same home, naming the first', async () => {
    const dataDir = dataFolder();
    const first = await serve(dataDir);
    const second = await runCli(['serve', '--port', '0', '--data-dir', dataDir], {
      timeoutMs: 60_000,
      env: { HOME_AGENT_NO_OLLAMA_PROBE: '1', HOME_AGENT_TOKEN: '' },
    });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`already served by home-agent serve (pid ${first.child.pid})`);
    expect(second.stdout).not.toContain('#token=');
  }, 120_000);

  it('lets serve take the home from an mcp that hosted it first; the MCP session goes on through serve', async () => {
    const dataDir = dataFolder();
    const client = await mcp(['--data-dir', dataDir]);
    expect(client.stderr()).toContain('this process hosts the home');
    // Hosting alone on an empty folder: no lamp.
    expect((await client.client.listTools()).tools.map((tool) => tool.name)).not.toContain('lamp__set');
    const host = await serve(dataDir);
    expect(host.stderr()).toContain('took this home over from home-agent mcp');
    await client.untilStderr('using the running host: home-agent serve');
    const tools = (await client.client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toContain('lamp__set');
    const result = await client.call('lamp__get', { device_id: 'lamp-1' });
    expect(JSON.parse(textOf(result))).toMatchObject({ device_id: 'lamp-1', result: { on: false } });
  }, 120_000);

  it('hosts the home itself when the running host stops, and the MCP session goes on', async () => {
    const dataDir = dataFolder();
    const host = await serve(dataDir);
    const client = await mcp(['--data-dir', dataDir]);
    expect((await client.client.listTools()).tools.map((tool) => tool.name)).toContain('lamp__set');
    await host.stop();
    await client.untilStderr('this process hosts the home now');
    // Its own host (no simulated devices here) answers the same session.
    const tools = (await client.client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toContain('output_list_channels');
    expect(tools).not.toContain('lamp__set');
  }, 120_000);
});
