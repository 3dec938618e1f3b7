import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  fetchKey,
  forgetFetchFailure,
  recentFetchFailure,
  rememberFetchFailure,
} from '../../scripts/electron-fetch-memo.mjs';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function memoFile(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'fetch-memo-'));
  dirs.push(dir);
  return path.join(dir, 'cache', 'electron-fetch.json');
}

const HOUR = 60 * 60_000;

describe('a failed Electron download is remembered', () => {
  const key = fetchKey('39.2.0', { ELECTRON_MIRROR: 'https://mirror.example/' });

  it('for 24 hours with the same version and settings', () => {
    const file = memoFile();
    rememberFetchFailure(file, key, 'RequestError: getaddrinfo ENOTFOUND github.com', 0);
    expect(recentFetchFailure(file, key, 23 * HOUR)).toEqual({
      failedAt: 0,
      reason: 'RequestError: getaddrinfo ENOTFOUND github.com',
    });
    expect(recentFetchFailure(file, key, 25 * HOUR)).toBeUndefined();
  });

  it('not for another mirror, proxy or version, and not after a fetch that worked', () => {
    const file = memoFile();
    rememberFetchFailure(file, key, 'HTTPError: 404', 0);
    expect(
      recentFetchFailure(file, fetchKey('39.2.0', { ELECTRON_MIRROR: 'https://other.example/' }), HOUR),
    ).toBeUndefined();
    expect(
      recentFetchFailure(
        file,
        fetchKey('39.2.0', { ELECTRON_MIRROR: 'https://mirror.example/', HTTPS_PROXY: 'http://proxy:3128' }),
        HOUR,
      ),
    ).toBeUndefined();
    expect(
      recentFetchFailure(file, fetchKey('40.0.0', { ELECTRON_MIRROR: 'https://mirror.example/' }), HOUR),
    ).toBeUndefined();
    forgetFetchFailure(file);
    expect(recentFetchFailure(file, key, HOUR)).toBeUndefined();
  });

  it('is ignored when unreadable or from the future', () => {
    const file = memoFile();
    rememberFetchFailure(file, key, 'HTTPError: 404', 10 * HOUR);
    expect(recentFetchFailure(file, key, HOUR)).toBeUndefined();
    writeFileSync(file, '{not json');
    expect(recentFetchFailure(file, key, HOUR)).toBeUndefined();
  });
});
