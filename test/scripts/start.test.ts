import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { REPO_ROOT } from '../helpers/run-cli.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Runs `npm start`'s script in browser mode on a data folder of its own; resolves with its lines once it serves. */
async function startInBrowserMode(): Promise<{ lines: string[]; url: string; child: ChildProcess }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-start-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const child = spawn(process.execPath, ['scripts/start.mjs', '--port', '0', '--data-dir', dataDir], {
    cwd: REPO_ROOT,
    // No display, and no probe of a local Ollama: the embedded defaults, whatever this machine runs.
    env: {
      ...process.env,
      DISPLAY: '',
      WAYLAND_DISPLAY: '',
      HOME_AGENT_NO_OLLAMA_PROBE: '1',
      // The fetch path has tests of its own against loopback mirrors; this one never reaches out.
      ELECTRON_SKIP_BINARY_DOWNLOAD: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => stop(child));
  const lines: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      const match = /Home Agent is serving at (\S+)/.exec(line);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before serving: ${lines.join('\n')}`)));
  });
  return { lines, url, child };
}

describe('npm start', () => {
  it('falls back to browser mode without the Electron binary or a display, says why, and serves the demo home', async () => {
    const { lines, url } = await startInBrowserMode();
    expect(lines[0]).toMatch(
      /^Home Agent starts in browser mode: (the Electron binary is not installed|there is no display)/,
    );
    const { origin, hash } = new URL(url);
    const token = hash.replace('#token=', '');
    const page = await fetch(`${origin}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const call = async (method: string) => {
      const response = await fetch(`${origin}/api/${method}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      return ((await response.json()) as { result: Record<string, unknown> }).result;
    };
    expect(await call('app/info')).toMatchObject({ model: { label: 'Demo model — no AI', scripted: true } });
    const devices = (await call('devices/list')).devices as { id: string; online: boolean }[];
    expect(devices.map((device) => [device.id, device.online])).toEqual([
      ['display-1', true],
      ['lamp-1', true],
      ['lamp-2', true],
      ['thermometer-1', true],
    ]);
  }, 120_000);

  it('serves from the process it started in: no second Node runs the CLI', async () => {
    const { child } = await startInBrowserMode();
    const childrenRunningTheCli = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .filter((pid) => {
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
          const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
          return parent === child.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('home-agent.mjs');
        } catch {
          return false; // ended while being read: not a child that serves
        }
      });
    expect(childrenRunningTheCli).toEqual([]);
  }, 120_000);

  it('builds the UI only when it is older than its sources: a second start serves the build it has', async () => {
    const first = await startInBrowserMode();
    await stop(first.child);
    const second = await startInBrowserMode();
    expect(second.lines).toContain('The UI is up to date (dist/renderer).');
    expect(second.lines.some((line) => line.startsWith('Building the UI'))).toBe(false);
  }, 120_000);
});
