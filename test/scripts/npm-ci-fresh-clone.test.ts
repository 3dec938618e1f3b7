// From a fresh clone, as a new user would: `npm ci` with no environment variable, then `npm start`.
// One real `npm ci` (about a minute and a half here) serves every test in this file; the clone is of
// the committed HEAD, so commit before running it. Electron's download is pointed at a loopback
// mirror (ELECTRON_MIRROR) so the outcome does not depend on whether this machine reaches GitHub.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { REPO_ROOT } from '../helpers/run-cli.ts';
import { shasumsLine, startElectronMirror, storedZip, type ElectronMirror } from './electron-mirror.ts';

const gitMissing = spawnSync('git', ['--version']).status !== 0;
const work = mkdtempSync(path.join(tmpdir(), 'home-agent-fresh-clone-'));
const clone = path.join(work, 'home-agent');
const electronDir = path.join(clone, 'node_modules', 'electron');
// Electron's published names (SHASUMS256.txt of every release): electron-v<version>-<platform>-<arch>.zip.
const version = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, 'node_modules/electron/package.json'), 'utf8')) as {
    version: string;
  }
).version;
const zipName = `electron-v${version}-${process.platform}-${process.arch}.zip`;
const fakeBinary = '#!/bin/sh\necho "a stand-in for the Electron binary"\n';
const fakeZip = storedZip({ electron: fakeBinary, version: `v${version}` });

/** What a new user's shell has: HOME and PATH, no npm or Electron variables, no project `.bin` on PATH. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const pathEntries = (process.env.PATH ?? '').split(path.delimiter).filter((entry) => !entry.includes('node_modules'));
  return {
    HOME: process.env.HOME,
    PATH: [path.dirname(process.execPath), ...pathEntries].join(path.delimiter),
    ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
    ...extra,
  };
}

let install: { status: number | null; output: string };
beforeAll(() => {
  if (gitMissing) return;
  const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).stdout.trim();
  for (const args of [
    ['clone', '--quiet', REPO_ROOT, clone],
    ['-C', clone, 'checkout', '--quiet', '--detach', head],
  ]) {
    const result = spawnSync('git', args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
  }
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: clone, env: cleanEnv(), encoding: 'utf8' });
  install = { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}, 600_000);
// The clone holds a whole node_modules: removing it takes a while on a busy machine.
afterAll(() => rm(work, { recursive: true, force: true }), 300_000);

type Started = {
  child: ChildProcess;
  lines: string[];
  waitFor(pattern: RegExp): Promise<{ line: string; at: number }>;
};
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `npm start` in the clone, in its own process group so stopping it stops forge or the server too. */
function npmStart(env: Record<string, string>): Started {
  const dataDir = mkdtempSync(path.join(work, 'data-'));
  const child = spawn('npm', ['start', '--', '--port', '0', '--data-dir', dataDir], {
    cwd: clone,
    env: cleanEnv({ HOME_AGENT_NO_OLLAMA_PROBE: '1', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanups.push(async () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // ESRCH: the whole group has already exited.
    }
    await exited;
  });
  const lines: string[] = [];
  const stamped: { line: string; at: number }[] = [];
  const waiters = new Set<() => void>();
  for (const stream of [child.stdout!, child.stderr!])
    createInterface({ input: stream }).on('line', (line) => {
      lines.push(line);
      stamped.push({ line, at: performance.now() });
      for (const wake of waiters) wake();
    });
  const waitFor = (pattern: RegExp) =>
    new Promise<{ line: string; at: number }>((resolve, reject) => {
      const check = () => {
        const found = stamped.find((entry) => pattern.test(entry.line));
        if (!found) return;
        waiters.delete(check);
        resolve(found);
      };
      waiters.add(check);
      check();
      void exited.then(() => {
        check();
        if (waiters.delete(check)) reject(new Error(`npm start exited before ${pattern}:\n${lines.join('\n')}`));
      });
    });
  return { child, lines, waitFor };
}

/** Resolves with `promise`, or rejects when `ms` pass first. */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function mirror(files: Record<string, Buffer | string>): Promise<ElectronMirror> {
  const started = await startElectronMirror(files);
  cleanups.push(() => started.close());
  return started;
}

// A display is all the desktop path needs before it fetches; no X server has to answer.
const display = { DISPLAY: ':99' };

describe.skipIf(gitMissing)(
  gitMissing ? 'a fresh clone (skipped: git is missing; apt-get install git)' : 'a fresh clone',
  () => {
    it('installs with plain `npm ci` and no variable: electron unpacked without its download, the native modules built', () => {
      expect(install.status, install.output).toBe(0);
      expect(existsSync(path.join(electronDir, 'package.json'))).toBe(true);
      expect(existsSync(path.join(electronDir, 'path.txt'))).toBe(false);
      expect(existsSync(path.join(clone, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'))).toBe(true);
    });

    it('builds the CLI during `npm ci`, so the first command starts compiled without building or a loader', () => {
      expect(install.status, install.output).toBe(0);
      expect(existsSync(path.join(clone, 'dist/cli/build.json'))).toBe(true);
      const version = spawnSync(process.execPath, ['bin/home-agent.mjs', '--version'], {
        cwd: clone,
        env: cleanEnv(),
        encoding: 'utf8',
      });
      expect({ status: version.status, stderr: version.stderr }).toEqual({ status: 0, stderr: '' });
      expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    });

    it('leaves no install script to npm defaults: every one is allowed or denied in package.json', () => {
      // npm 12 blocks unreviewed install scripts where npm 11 runs them; a reviewed list behaves the same in both.
      const listed = spawnSync('npm', ['install-scripts', 'ls'], { cwd: clone, env: cleanEnv(), encoding: 'utf8' });
      expect(listed.status, listed.stderr).toBe(0);
      expect(listed.stdout).toContain('No packages with unreviewed install scripts');
    });

    it('npm start tries Electron’s own install step and, when the download fails, serves browser mode within 60 s saying why', async () => {
      const unreachable = await mirror({});
      const electronCache = mkdtempSync(path.join(work, 'electron-cache-'));
      const app = npmStart({ ...display, ELECTRON_MIRROR: unreachable.url, electron_config_cache: electronCache });
      const failed = await app.waitFor(/^Home Agent starts in browser mode:/);
      expect(failed.line).toMatch(/the Electron download failed: .*404/);
      expect(unreachable.requests).toEqual([`/v${version}/${zipName}`]);
      const served = await within(60_000, 'browser mode after the failed download', app.waitFor(/serving at (\S+)/));
      expect(app.lines).toContain(
        'For the desktop app, set ELECTRON_MIRROR to a mirror this machine can reach, or use a proxy ' +
          '(ELECTRON_GET_USE_PROXY=1 with HTTPS_PROXY), then run npm start again.',
      );
      const origin = new URL(/serving at (\S+)/.exec(served.line)![1]!).origin;
      expect(await (await fetch(`${origin}/`)).text()).toContain('<div id="root">');
      expect(existsSync(path.join(electronDir, 'path.txt'))).toBe(false);

      // The next start with the same download settings does not try again: it says when it failed.
      const again = npmStart({ ...display, ELECTRON_MIRROR: unreachable.url, electron_config_cache: electronCache });
      const remembered = await again.waitFor(/^Home Agent starts in browser mode:/);
      expect(remembered.line).toMatch(
        /the Electron download failed at .* \(.*404.*\); it is tried again after 24 hours, at once with other download settings or HOME_AGENT_FETCH_ELECTRON=1\.$/,
      );
      expect(again.lines.some((line) => line.startsWith('Fetching the Electron'))).toBe(false);
      expect(unreachable.requests).toEqual([`/v${version}/${zipName}`]);
    }, 180_000);

    it('npm start honours ELECTRON_SKIP_BINARY_DOWNLOAD: no fetch, browser mode naming the variable', async () => {
      const watched = await mirror({});
      const app = npmStart({ ...display, ELECTRON_MIRROR: watched.url, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' });
      const reason = await app.waitFor(/^Home Agent starts in browser mode:/);
      expect(reason.line).toBe(
        'Home Agent starts in browser mode: the Electron binary is not installed and ELECTRON_SKIP_BINARY_DOWNLOAD is set.',
      );
      expect(app.lines.some((line) => line.startsWith('Fetching the Electron'))).toBe(false);
      expect(watched.requests).toEqual([]);
    }, 120_000);

    it('npm start refuses a downloaded binary whose checksum is not the one Electron published', async () => {
      const tampered = await mirror({ [`/v${version}/${zipName}`]: fakeZip });
      const electronCache = mkdtempSync(path.join(work, 'electron-cache-'));
      const app = npmStart({ ...display, ELECTRON_MIRROR: tampered.url, electron_config_cache: electronCache });
      const failed = await app.waitFor(/^Home Agent starts in browser mode:/);
      expect(failed.line).toMatch(/the Electron download failed: .*checksum/i);
      expect(existsSync(path.join(electronDir, 'path.txt'))).toBe(false);
    }, 120_000);

    it('npm start fetches the binary from a mirror that has it and opens the desktop window', async () => {
      const working = await mirror({
        [`/v${version}/${zipName}`]: fakeZip,
        [`/v${version}/SHASUMS256.txt`]: shasumsLine(zipName, fakeZip),
      });
      const electronCache = mkdtempSync(path.join(work, 'electron-cache-'));
      const app = npmStart({
        ...display,
        ELECTRON_MIRROR: working.url,
        electron_config_cache: electronCache,
        // Our stand-in zip is not the published one, so check it against the mirror's SHASUMS256.txt.
        electron_use_remote_checksums: '1',
      });
      const outcome = await app.waitFor(/^Home Agent (opens the desktop window|starts in browser mode)/);
      expect(outcome.line).toBe('Home Agent opens the desktop window (electron-forge start).');
      expect(app.lines.some((line) => line.startsWith('Fetched the Electron binary'))).toBe(true);
      expect(working.requests).toEqual(
        expect.arrayContaining([`/v${version}/${zipName}`, `/v${version}/SHASUMS256.txt`]),
      );
      // Electron's index.js (what forge launches) now names the binary the install step unpacked.
      const resolved = spawnSync(process.execPath, ['-p', "require('electron')"], { cwd: clone, encoding: 'utf8' });
      expect(resolved.stdout.trim()).toBe(path.join(electronDir, 'dist', 'electron'));
      expect(readFileSync(path.join(electronDir, 'dist', 'electron'), 'utf8')).toBe(fakeBinary);
    }, 120_000);
  },
);
