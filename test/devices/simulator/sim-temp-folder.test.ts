import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { homeAgentCommand } from '../../helpers/compiled-entries.ts';
import { REPO_ROOT } from '../../helpers/run-cli.ts';
import { findExecutable } from '../../../host/devices/find-executable.ts';

const hasSocat = findExecutable('socat') !== undefined;
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function simFolders(temporary: string): string[] {
  return readdirSync(temporary).filter((name) => name.startsWith('home-agent-sim-'));
}

/**
 * Resolves when no simulator folder is left in `temporary`: checked on every change of the folder
 * (no polling); after `boundMs` it resolves anyway and the assertion below says what was left.
 */
function whenNoSimFolder(temporary: string, boundMs: number): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(temporary, () => check());
    const bound = setTimeout(() => finish(), boundMs);
    function finish(): void {
      clearTimeout(bound);
      watcher.close();
      resolve();
    }
    function check(): void {
      if (simFolders(temporary).length === 0) finish();
    }
    check();
  });
}

/** Resolves when `folder` holds exactly `names`: checked on every change of the folder; after `boundMs` anyway. */
function whenFolderHolds(folder: string, names: string[], boundMs: number): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(folder, () => check());
    const bound = setTimeout(() => finish(), boundMs);
    function finish(): void {
      clearTimeout(bound);
      watcher.close();
      resolve();
    }
    function check(): void {
      if (readdirSync(folder).sort().join() === names.join()) finish();
    }
    check();
  });
}

function withoutIndexVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { XDG_RUNTIME_DIR: _runtime, HOME_AGENT_SIM_INDEX: _index, ...rest } = env;
  return rest;
}

/** Runs `home-agent …` with its own temp folder; resolves once `ready` matches a stdout line. */
function startUntil(args: string[], ready: RegExp, temporary: string) {
  const child = spawn(process.execPath, [...homeAgentCommand(), ...args], {
    cwd: REPO_ROOT,
    // No runtime folder and no index of the run's: the index is the user's own in this temp folder.
    env: {
      ...withoutIndexVariables(process.env),
      TMPDIR: temporary,
      HOME_AGENT_NO_OLLAMA_PROBE: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const started = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (ready.test(stdout)) resolve();
    });
    child.on('close', (code) => reject(new Error(`exited (${code}) before it was ready: ${stderr}`)));
  });
  return { child, started, exited, stdout: () => stdout };
}

describe.skipIf(!hasSocat)(
  `the simulator's temp folder${hasSocat ? '' : ' (skipped: apt-get install -y socat)'}`,
  () => {
    it('does not outlive a SIGKILLed `home-agent serve --sim`', async () => {
      const temporary = mkdtempSync(path.join(tmpdir(), 'home-agent-tmpdir-'));
      folders.push(temporary);
      const run = startUntil(['serve', '--sim', '--port', '0', '--data-dir', temporary], /serving at/, temporary);
      await run.started;
      expect(simFolders(temporary)).toHaveLength(1);
      run.child.kill('SIGKILL');
      await run.exited;
      await whenNoSimFolder(temporary, 10_000);
      expect(simFolders(temporary)).toEqual([]);
    });

    it('leaves no port of a SIGKILLed `home-agent sim`, whose next start takes the same folder and paths', async () => {
      const temporary = mkdtempSync(path.join(tmpdir(), 'home-agent-tmpdir-'));
      folders.push(temporary);
      const args = ['sim', '--latency-ms', '0', '--devices', 'lamp,thermometer'];
      const first = startUntil(args, /thermometer-1 thermometer /, temporary);
      await first.started;
      const ports = path.join(temporary, `home-agent-sims-${process.getuid?.()}`, 'sim-1');
      expect(readdirSync(ports).sort()).toEqual([
        'home-agent-sim.json',
        'home-agent-sim.pid',
        'lamp-1',
        'lamp-1.device',
        'thermometer-1',
        'thermometer-1.device',
      ]);
      first.child.kill('SIGKILL');
      await first.exited;
      // The guard stops socat, which removes its links: only the record and the stale lock stay.
      await whenFolderHolds(ports, ['home-agent-sim.json', 'home-agent-sim.pid'], 10_000);
      expect(readdirSync(ports).sort()).toEqual(['home-agent-sim.json', 'home-agent-sim.pid']);
      const again = startUntil(args, /thermometer-1 thermometer /, temporary);
      await again.started;
      expect(again.stdout()).toBe(
        `lamp-1 lamp ${path.join(ports, 'lamp-1')}\nthermometer-1 thermometer ${path.join(ports, 'thermometer-1')}\n`,
      );
      again.child.kill('SIGTERM');
      await again.exited;
    });
  },
);
