import { afterEach, describe, expect, it } from 'vitest';
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readOrCreateWebToken, readWebToken, rotateWebToken, webTokenFileOf } from '../../../host/web/token-file.ts';

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

  it('is refused when other users may read it, naming the mode and both fixes', () => {
    const dir = dataDir();
    const token = readOrCreateWebToken(dir);
    const file = webTokenFileOf(dir);
    chmodSync(file, 0o644);
    expect(() => readWebToken(dir)).toThrow(
      `${file} can be read or written by other users (mode 0644), and the token lets whoever holds it control the home: make it private with \`chmod 600 ${file}\`, or replace it with \`home-agent token rotate\``,
    );
    chmodSync(file, 0o600);
    expect(readWebToken(dir)).toBe(token);
  });

  it.skipIf(process.getuid?.() !== 0)('is refused when another user owns it (needs root to hand it over)', () => {
    const dir = dataDir();
    readOrCreateWebToken(dir);
    const file = webTokenFileOf(dir);
    chownSync(file, 65534, 65534);
    expect(() => readWebToken(dir)).toThrow(`${file} belongs to another user (uid 65534), not to you (uid 0)`);
  });

  it('is refused, unread, when it is larger than a token file can be', () => {
    const dir = dataDir();
    readOrCreateWebToken(dir);
    const file = webTokenFileOf(dir);
    writeFileSync(file, 'a'.repeat(10_000_000), { mode: 0o600 });
    expect(() => readWebToken(dir)).toThrow(`${file} holds 10000000 bytes, more than a token file can (4096)`);
  });

  it('is refused when it is a link, which rotate then replaces without touching what it pointed to', () => {
    const dir = dataDir();
    mkdirSync(dir, { recursive: true });
    const elsewhere = path.join(dir, '..', 'elsewhere');
    writeFileSync(elsewhere, 'x'.repeat(32), { mode: 0o600 });
    const file = webTokenFileOf(dir);
    symlinkSync(elsewhere, file);
    expect(() => readWebToken(dir)).toThrow(`${file} is a symbolic link (to ${elsewhere})`);
    const token = rotateWebToken(dir);
    expect(lstatSync(file).isFile()).toBe(true);
    expect(readWebToken(dir)).toBe(token);
    expect(readFileSync(elsewhere, 'utf8')).toBe('x'.repeat(32));
  });

  it('rotate over a folder fails and leaves no token behind anywhere', () => {
    const dir = dataDir();
    mkdirSync(webTokenFileOf(dir), { recursive: true });
    expect(() => rotateWebToken(dir)).toThrow(`${webTokenFileOf(dir)} is a directory`);
    expect(readdirSync(dir)).toEqual(['web-token']);
    expect(readdirSync(webTokenFileOf(dir))).toEqual([]);
  });

  it('rotate writes the new token 0600 in one step, with no file left beside it', () => {
    const dir = dataDir();
    readOrCreateWebToken(dir);
    chmodSync(webTokenFileOf(dir), 0o644);
    const token = rotateWebToken(dir);
    expect(statSync(webTokenFileOf(dir)).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['web-token']);
    expect(readWebToken(dir)).toBe(token);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });
});
