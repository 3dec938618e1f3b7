// Electron's own install step, run on demand: `npm ci` denies electron's postinstall (package.json
// `allowScripts`), so `npm start` runs the same `install.js` when the binary is missing.
import { spawn } from 'node:child_process';
import path from 'node:path';

/** How long the download may take before `npm start` gives up on it (a stalled link never ends). */
export const FETCH_TIMEOUT_MS = 10 * 60_000;
const MAX_REASON_LENGTH = 200;
const MAX_STDERR_BYTES = 64 * 1024;

/**
 * Runs `<electronDir>/install.js` (download, checksum, unzip; it honours ELECTRON_MIRROR, proxies
 * and the cache as usual). Resolves `{ ok: true }`, or `{ ok: false, reason }` with the error's
 * first line; never rejects. The child (environment `env`) is killed when `signal` aborts or
 * `timeoutMs` passes.
 */
export function fetchElectronBinary({ electronDir, signal, timeoutMs = FETCH_TIMEOUT_MS, env = process.env }) {
  return new Promise((resolve) => {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const stopped = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
    const child = spawn(process.execPath, [path.join(electronDir, 'install.js')], {
      cwd: electronDir,
      env,
      stdio: ['ignore', 'inherit', 'pipe'],
      signal: stopped,
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      if (stderr.length < MAX_STDERR_BYTES) stderr += chunk;
    });
    const settle = (result) => {
      clearTimeout(timer);
      resolve(result);
    };
    // On abort Node kills the child and reports an AbortError; wait for 'close' so it is gone.
    child.once('error', (error) => {
      if (!stopped.aborted) settle({ ok: false, reason: `its install step could not start (${error.message})` });
    });
    child.once('close', (code, signalName) => {
      if (timeout.signal.aborted) settle({ ok: false, reason: `it did not finish within ${duration(timeoutMs)}` });
      else if (signal?.aborted) settle({ ok: false, reason: 'it was interrupted' });
      else if (code === 0) settle({ ok: true });
      else settle({ ok: false, reason: firstLine(stderr) ?? `its install step exited with ${code ?? signalName}` });
    });
  });
}

function duration(ms) {
  return ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;
}

/** The first non-empty line of an error report (install.js prints the whole stack), kept short. */
export function firstLine(text) {
  const line = text
    .split('\n')
    .map((part) => part.trim())
    .find((part) => part !== '');
  if (line === undefined) return undefined;
  return line.length > MAX_REASON_LENGTH ? `${line.slice(0, MAX_REASON_LENGTH - 1)}…` : line;
}
