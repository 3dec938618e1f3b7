#!/usr/bin/env node
// `npm start`: fetches the Electron binary when it is not there yet (Electron's own install step,
// which `npm ci` skips) and opens the desktop window when a display exists; otherwise builds the UI
// (when older than its sources) and serves it in browser mode, in this process, printing the URL and
// saying why.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetchElectronBinary } from './fetch-electron-binary.mjs';
import { fetchKey, forgetFetchFailure, recentFetchFailure, rememberFetchFailure } from './electron-fetch-memo.mjs';
import { runHomeAgent } from './run-home-agent.mjs';
import { uiBuildState } from './ui-build-state.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));
/** Where a failed fetch of the Electron binary is remembered (beside the other tools' caches). */
const fetchMemo = path.join(root, 'node_modules/.cache/home-agent/electron-fetch.json');
const fetchHint =
  'For the desktop app, set ELECTRON_MIRROR to a mirror this machine can reach, or use a proxy ' +
  '(ELECTRON_GET_USE_PROXY=1 with HTTPS_PROXY), then run npm start again.';

function electronBinaryInstalled() {
  try {
    // electron's index.js throws until its install step has written path.txt; a failed load is not cached.
    const binary = require('electron');
    return typeof binary === 'string' && existsSync(binary);
  } catch {
    return false;
  }
}

/** Why the desktop window cannot open (`{ reason, hint? }`), or undefined when it can. */
async function desktopUnavailable(signal) {
  if (process.env.HOME_AGENT_BROWSER === '1') return { reason: 'HOME_AGENT_BROWSER=1 asks for browser mode' };
  // The binary is fetched first, display or not: `npm ci` leaves that step to the first start.
  const missing = await binaryMissing(signal);
  if (missing) return missing;
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return { reason: 'there is no display (DISPLAY/WAYLAND_DISPLAY are unset)' };
  return undefined;
}

/** Why the Electron binary is not there even after its install step ran now, or undefined once it is. */
async function binaryMissing(signal) {
  if (electronBinaryInstalled()) return undefined;
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD)
    return { reason: 'the Electron binary is not installed and ELECTRON_SKIP_BINARY_DOWNLOAD is set' };
  let electronDir;
  try {
    electronDir = path.dirname(require.resolve('electron/package.json'));
  } catch {
    return { reason: 'the electron package is not installed (npm ci installs it)' };
  }
  const { version } = require('electron/package.json');
  const key = fetchKey(version, process.env);
  const earlier = process.env.HOME_AGENT_FETCH_ELECTRON === '1' ? undefined : recentFetchFailure(fetchMemo, key);
  if (earlier)
    return {
      reason: `the Electron download failed at ${new Date(earlier.failedAt).toLocaleString('en-GB')} (${earlier.reason}); it is tried again after 24 hours, at once with other download settings or HOME_AGENT_FETCH_ELECTRON=1`,
      hint: fetchHint,
    };
  console.log(`Fetching the Electron ${version} binary (Electron's own install step)…`);
  const fetched = await fetchElectronBinary({ electronDir, signal });
  if (signal.aborted) process.exit(130);
  if (!fetched.ok) {
    rememberFetchFailure(fetchMemo, key, fetched.reason);
    return { reason: `the Electron download failed: ${fetched.reason}`, hint: fetchHint };
  }
  forgetFetchFailure(fetchMemo);
  if (!electronBinaryInstalled())
    return { reason: "Electron's install step finished but the binary is still missing", hint: fetchHint };
  console.log('Fetched the Electron binary.');
  return undefined;
}

function run(command, args) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

const interrupted = new AbortController();
const interrupt = () => interrupted.abort();
process.once('SIGINT', interrupt);
process.once('SIGTERM', interrupt);
const unavailable = await desktopUnavailable(interrupted.signal);
process.off('SIGINT', interrupt);
process.off('SIGTERM', interrupt);

if (!unavailable) {
  console.log('Home Agent opens the desktop window (electron-forge start).');
  run(process.execPath, [path.join(root, 'node_modules/@electron-forge/cli/dist/electron-forge.js'), 'start']);
} else {
  console.log(`Home Agent starts in browser mode: ${unavailable.reason}.`);
  if (unavailable.hint) console.log(unavailable.hint);
  const ui = uiBuildState(root);
  if (ui.fresh) console.log('The UI is up to date (dist/renderer).');
  else buildUi(ui.reason);
  // In this process: a second Node would start (and load its modules) again before serving.
  process.exitCode = await runHomeAgent(root, ['serve', '--sim', ...process.argv.slice(2)]);
}

function buildUi(reason) {
  console.log(`Building the UI (${reason})…`);
  const build = spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules/vite/bin/vite.js'),
      'build',
      '--config',
      'vite.renderer.config.ts',
      '--logLevel',
      'warn',
    ],
    { cwd: root, stdio: 'inherit' },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}
