// Electron's own install step (the worktree's node_modules/electron/install.js) against loopback
// mirrors. Only failures here: a failed install step writes nothing into the electron package
// (the working download is tested on a fresh clone, test/scripts/npm-ci-fresh-clone.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fetchElectronBinary, firstLine } from '../../scripts/fetch-electron-binary.mjs';
import { REPO_ROOT } from '../helpers/run-cli.ts';
import { startElectronMirror } from './electron-mirror.ts';

const electronDir = path.join(REPO_ROOT, 'node_modules', 'electron');
const version = (JSON.parse(readFileSync(path.join(electronDir, 'package.json'), 'utf8')) as { version: string })
  .version;
const zipName = `electron-v${version}-${process.platform}-${process.arch}.zip`;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The install step's environment: a mirror, a throw-away cache and temp folder, nothing inherited. */
function installEnv(mirror: string): NodeJS.ProcessEnv {
  const scratch = mkdtempSync(path.join(tmpdir(), 'home-agent-electron-fetch-'));
  cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: scratch,
    ELECTRON_MIRROR: mirror,
    electron_config_cache: scratch,
  };
}

/** A mirror that takes the request and never answers; `requested` resolves when a request arrives. */
async function stalledMirror(): Promise<{ url: string; requested: Promise<IncomingMessage> }> {
  let onRequest!: (request: IncomingMessage) => void;
  const requested = new Promise<IncomingMessage>((resolve) => (onRequest = resolve));
  const server = createServer((request) => onRequest(request));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requested };
}

// install.js does nothing when the binary is already there, so these need a checkout without it (CI, a fresh clone).
const installed = existsSync(path.join(electronDir, 'path.txt'));
describe.skipIf(installed)(
  `fetchElectronBinary${installed ? ' (skipped: the Electron binary is installed here)' : ''}`,
  () => {
    it('reports the first line of the install step’s error, not its stack', async () => {
      const mirror = await startElectronMirror({});
      cleanups.push(() => mirror.close());
      const result = await fetchElectronBinary({ electronDir, env: installEnv(mirror.url) });
      // got's HTTPError text as its stack starts (@electron/get adds the URL to the message only later).
      expect(result).toEqual({ ok: false, reason: 'HTTPError: Response code 404 (Not Found)' });
      expect(mirror.requests).toEqual([`/v${version}/${zipName}`]);
      expect(existsSync(path.join(electronDir, 'path.txt'))).toBe(false);
    });

    it('gives up on a download that never finishes once its time is up, and says so', async () => {
      const mirror = await stalledMirror();
      const result = await fetchElectronBinary({ electronDir, env: installEnv(mirror.url), timeoutMs: 1_000 });
      expect(result).toEqual({ ok: false, reason: 'it did not finish within 1 s' });
    });

    it('stops the install step when its signal aborts', async () => {
      const mirror = await stalledMirror();
      const controller = new AbortController();
      void mirror.requested.then(() => controller.abort());
      const result = await fetchElectronBinary({ electronDir, env: installEnv(mirror.url), signal: controller.signal });
      expect(result).toEqual({ ok: false, reason: 'it was interrupted' });
    });
  },
);

describe('firstLine', () => {
  it('keeps the first non-empty line, trimmed, and cuts a long one to 200 characters', () => {
    expect(firstLine('\n  RequestError: getaddrinfo ENOTFOUND github.com\n    at ClientRequest.<anonymous>\n')).toBe(
      'RequestError: getaddrinfo ENOTFOUND github.com',
    );
    expect(firstLine('x'.repeat(300))).toBe(`${'x'.repeat(199)}…`);
    expect(firstLine(' \n \n')).toBeUndefined();
  });
});
