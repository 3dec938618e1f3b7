// Remembers a failed fetch of the Electron binary, so `npm start` does not try the same download on
// every start (each try costs a network round trip, or minutes on a stalled link). Plain JavaScript:
// `npm start` runs before any TypeScript loader.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** How long a failed download is not tried again with the same settings. */
export const RETRY_AFTER_MS = 24 * 60 * 60_000;

/** The settings a download depends on: a change to any of them is worth a new try at once. */
const FETCH_SETTINGS = [
  'ELECTRON_MIRROR',
  'ELECTRON_CUSTOM_DIR',
  'ELECTRON_GET_USE_PROXY',
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'electron_config_cache',
  'electron_use_remote_checksums',
];

/** What identifies one download: the Electron version and the settings it was fetched with. */
export function fetchKey(version, env) {
  return JSON.stringify([version, ...FETCH_SETTINGS.map((name) => env[name] ?? null)]);
}

/** The failure remembered for `key` within RETRY_AFTER_MS of `now`, or undefined. */
export function recentFetchFailure(memoFile, key, now = Date.now()) {
  let memo;
  try {
    memo = JSON.parse(readFileSync(memoFile, 'utf8'));
  } catch {
    return undefined; // none kept, or unreadable: try the download
  }
  if (memo?.key !== key || typeof memo.failedAt !== 'number' || typeof memo.reason !== 'string') return undefined;
  if (now - memo.failedAt > RETRY_AFTER_MS || memo.failedAt > now) return undefined;
  return { failedAt: memo.failedAt, reason: memo.reason };
}

export function rememberFetchFailure(memoFile, key, reason, now = Date.now()) {
  try {
    mkdirSync(path.dirname(memoFile), { recursive: true });
    writeFileSync(memoFile, `${JSON.stringify({ key, failedAt: now, reason })}\n`);
  } catch {
    // Not kept: the next start simply tries again.
  }
}

export function forgetFetchFailure(memoFile) {
  rmSync(memoFile, { force: true });
}
