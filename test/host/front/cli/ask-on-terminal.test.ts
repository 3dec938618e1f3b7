import { afterEach, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { homeAgentCommand } from '../../../helpers/compiled-entries.ts';
import { REPO_ROOT, runCli } from '../../../helpers/run-cli.ts';
import { startSimProcess } from '../../../helpers/start-sim-process.ts';
import { tempDataDir } from '../../devices/host-rig.ts';

const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * Runs `home-agent ask` on a pseudo-terminal (util-linux `script`), answering the first question
 * with `answer` once it is on the screen; resolves with everything the terminal showed.
 */
function askOnTerminal(args: string[], answer: string): Promise<string> {
  const command = [process.execPath, ...homeAgentCommand(), 'ask', ...args]
    .map((part) => `'${part.replaceAll("'", "'\\''")}'`)
    .join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let screen = '';
  let answered = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`ask on a terminal did not finish; it showed:\n${screen}`));
    }, 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString();
      if (!answered && screen.includes('Allow it?')) {
        answered = true;
        child.stdin.write(`${answer}\n`);
      }
    });
    child.on('close', () => {
      clearTimeout(timer);
      resolve(screen);
    });
  });
}

function toolEnd(screen: string): Record<string, unknown> | undefined {
  for (const line of screen.split(/\r?\n/)) {
    const start = line.indexOf('{"');
    if (start === -1) continue;
    try {
      const event = JSON.parse(line.slice(start)) as Record<string, unknown>;
      if (event.type === 'tool/end') return event;
    } catch {
      // A prompt or an echoed answer on the line: not an event.
    }
  }
  return undefined;
}

describe.skipIf(!hasScript)('ask on a terminal (needs: apt-get install bsdutils)', () => {
  it('asks the person y/N with the whole arguments, and runs the call only when they say yes', async () => {
    const data = tempDataDir();
    cleanups.push(() => data.remove());
    const sim = await startSimProcess({ kinds: ['relay'] });
    cleanups.push(() => sim.stop());
    const relayPath = sim.devices[0]!.path;
    expect(
      (await runCli(['devices', 'pair', relayPath, '--profile', 'at-relay-4', '--yes', '--data-dir', data.dir])).code,
    ).toBe(0);
    await runCli(['devices', 'grant', 'relay-1', 'set', '--data-dir', data.dir]);
    const script = path.join(data.dir, 'script.json');
    const turn = { toolCalls: [{ name: 'relay__set', args: { device_id: 'relay-1', channel: 3, on: true } }] };
    writeFileSync(script, JSON.stringify({ replies: [turn, { text: 'ok' }, turn, { text: 'ok' }] }));
    const args = ['--provider', 'scripted', '--script', script, '--data-dir', data.dir, '--json', 'switch'];

    const refused = await askOnTerminal(args, 'n');
    expect(refused).toContain('relay__set on relay-1 wants to run with {"device_id":"relay-1","channel":3,"on":true}');
    expect(refused).toContain('Allow it? [y/N');
    expect(toolEnd(refused)).toMatchObject({ ok: false, error: { reason: 'denied' } });

    const allowed = await askOnTerminal(args, 'y');
    expect(toolEnd(allowed)).toMatchObject({ ok: true });
    expect(await sim.waitForState('relay-1', (state) => JSON.stringify(state).includes('true'))).toBeDefined();
  });
});
