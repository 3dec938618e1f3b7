import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readOrCreateWebToken, rotateWebToken, webTokenFileOf } from '../../../host/web/token-file.ts';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function dataDir(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'home-agent-token-'));
  folders.push(folder);
  return path.join(folder, 'data');
}

describe('the stored web token', () => {
  it('is made once, readable by its owner only, and the same at every later start', () => {
    const dir = dataDir();
    const token = readOrCreateWebToken(dir);
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(statSync(webTokenFileOf(dir)).mode & 0o777).toBe(0o600);
    expect(readOrCreateWebToken(dir)).toBe(token);
  });

  it('is replaced by rotate', () => {
    const dir = dataDir();
    const before = readOrCreateWebToken(dir);
    const after = rotateWebToken(dir);
    expect(after).not.toBe(before);
    expect(readOrCreateWebToken(dir)).toBe(after);
  });

  it('is reported, never overwritten, when the file holds no usable token', () => {
    const dir = dataDir();
    readOrCreateWebToken(dir);
    writeFileSync(webTokenFileOf(dir), 'short\n');
    expect(() => readOrCreateWebToken(dir)).toThrow(`${webTokenFileOf(dir)} does not hold a usable token`);
    expect(readFileSync(webTokenFileOf(dir), 'utf8')).toBe('short\n');
  });
});
