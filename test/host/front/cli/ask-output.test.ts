import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { homeAgentCommand } from '../../../helpers/compiled-entries.ts';
import { REPO_ROOT, runCli } from '../../../helpers/run-cli.ts';
import { startSimProcess, type SimProcess } from '../../../helpers/start-sim-process.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-ask-output-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const SCRIPT = path.join(REPO_ROOT, 'test/fixtures/scripts/lamps-and-thermometer.json');
/** `home-agent ask` on the lamps-and-thermometer script and simulated devices, output for people (no --json). */
function askLampsArgs(dataDir: string): string[] {
  return [
    'ask',
    '--provider',
    'scripted',
    '--script',
    SCRIPT,
    '--sim',
    '--sim-latency-ms',
    '20',
    '--data-dir',
    dataDir,
  ];
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

describe('home-agent ask, for people', () => {
  it('prints the batch with 1-based rows in index order, their arguments and outcomes, and the conversation id last on stderr', async () => {
    const args = askLampsArgs(tempDir());
    const result = await runCli([...args, 'turn on the lamps']);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('Turning on both lamps and reading the thermometer.');
    expect(lines[1]).toBe('┌ batch 1 · parallel — all 3 calls are parallel-safe');
    expect(lines[2]).toMatch(
      /^│ 1\. lamp__set {2}device_id: "lamp-1", on: true — done · ran \d+ ms → \{"device_id":"lamp-1","result":\{"on":true,"brightness":100\}\}$/,
    );
    expect(lines[3]).toMatch(/^│ 2\. lamp__set {2}device_id: "lamp-2", on: true — done · ran \d+ ms → /);
    expect(lines[4]).toMatch(
      /^│ 3\. thermometer__read {2}device_id: "thermometer-1" — done · ran \d+ ms → .*"celsius":21\.5/,
    );
    expect(lines[5]).toMatch(/^└ 3 of 3 done in \d+ ms$/);
    expect(lines[6]).toBe('Done.');
    const last = result.stderr.trimEnd().split('\n').at(-1)!;
    const id = UUID.exec(last)?.[0];
    expect(last).toBe(`home-agent: conversation ${id} — continue it with: home-agent ask --conversation ${id} "…"`);

    // The id printed is the one to continue with: the second turn lands in the same conversation.
    const again = await runCli([...args, '--conversation', id!, '--json', 'and again']);
    const starts = again.stdout.split('\n').filter((line) => line.includes('"type":"turn/start"'));
    expect(starts).toHaveLength(1);
    expect(JSON.parse(starts[0]!)).toMatchObject({ conversationId: id });
  });

  it('names the cap that ran a parallel batch one call at a time', async () => {
    const result = await runCli([...askLampsArgs(tempDir()), '--concurrency-cap', '1', 'turn on the lamps']);
    expect(result.stdout).toContain(
      '┌ batch 1 · parallel — all 3 calls are parallel-safe, but the cap of 1 parallel call ran them one after another',
    );
  });

  it('after Ctrl+C, says the outcome is unknown and reads the lamps again: their state is the simulator’s own', async () => {
    const sim: SimProcess = await startSimProcess({ kinds: ['lamp', 'lamp'], latencyMs: 3000 });
    cleanups.push(() => sim.stop());
    const child = spawn(
      process.execPath,
      [
        ...homeAgentCommand(),
        'ask',
        '--provider',
        'demo',
        '--data-dir',
        tempDir(),
        ...sim.devices.flatMap((device) => ['--device', device.path]),
        '--json',
        'turn on all lamps',
      ],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HOME_AGENT_NO_OLLAMA_PROBE: '1' } },
    );
    cleanups.push(() => void child.kill('SIGKILL'));
    const events: Record<string, unknown>[] = [];
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    let started = 0;
    await new Promise<void>((resolve) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        const event = JSON.parse(line) as Record<string, unknown>;
        events.push(event);
        // Both requests are on their way to the lamps: stop now, as a person pressing Ctrl+C would.
        if (event.type === 'tool/start' && ++started === 2) resolve();
      });
    });
    // A call's request is written in the microtasks that follow its tool/start, before the child's
    // event loop can run the SIGINT handler: both requests have left when the stop arrives.
    child.kill('SIGINT');
    expect(await exited).toBe(1);
    const ends = events.filter((event) => event.type === 'tool/end');
    expect(ends.map((event) => event.outcome)).toEqual(['unknown', 'unknown']);
    const states = events.filter((event) => event.type === 'device/state');
    expect(states.map((state) => state.deviceId).sort()).toEqual(['lamp-1', 'lamp-2']);
    for (const state of states) {
      // The simulator's own report of the lamp, printed by its process: the independent witness.
      const witnessed = await sim.waitForState(String(state.deviceId), (candidate) => candidate.on === true);
      expect(state.result).toEqual(witnessed);
    }
    expect(events.at(-1)).toMatchObject({ type: 'turn/end', reason: 'aborted' });
  }, 60_000);
});
