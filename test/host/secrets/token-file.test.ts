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
import { readOrCreateToken, readToken, rotateToken, tokenFileOf, WEB_TOKEN } from '../../../host/secrets/token-file.ts';
import { MCP_TOKEN } from '../../../host/front/mcp/mcp-token.ts';

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
    const token = readOrCreateToken(dir, WEB_TOKEN);
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(statSync(tokenFileOf(dir, WEB_TOKEN)).mode & 0o777).toBe(0o600);
    expect(readOrCreateToken(dir, WEB_TOKEN)).toBe(token);
  });

  it('is replaced by rotate', () => {
    const dir = dataDir();
    const before = readOrCreateToken(dir, WEB_TOKEN);
    const after = rotateToken(dir, WEB_TOKEN);
    expect(after).not.toBe(before);
    expect(readOrCreateToken(dir, WEB_TOKEN)).toBe(after);
  });

  it('is reported, never overwritten, when the file holds no usable token', () => {
    const dir = dataDir();
    readOrCreateToken(dir, WEB_TOKEN);
    writeFileSync(tokenFileOf(dir, WEB_TOKEN), 'short\n');
    expect(() => readOrCreateToken(dir, WEB_TOKEN)).toThrow(
      `${tokenFileOf(dir, WEB_TOKEN)} does not hold a usable token`,
    );
    expect(readFileSync(tokenFileOf(dir, WEB_TOKEN), 'utf8')).toBe('short\n');
  });

  it('is refused when other users may read it, naming the mode and both fixes', () => {
    const dir = dataDir();
    const token = readOrCreateToken(dir, WEB_TOKEN);
    const file = tokenFileOf(dir, WEB_TOKEN);
    chmodSync(file, 0o644);
    expect(() => readToken(dir, WEB_TOKEN)).toThrow(
      `${file} can be read or written by other users (mode 0644), and the token lets whoever holds it control the home: make it private with \`chmod 600 ${file}\`, or replace it with \`home-agent token rotate\``,
    );
    chmodSync(file, 0o600);
    expect(readToken(dir, WEB_TOKEN)).toBe(token);
  });

  it.skipIf(process.getuid?.() !== 0)('is refused when another user owns it (needs root to hand it over)', () => {
    const dir = dataDir();
    readOrCreateToken(dir, WEB_TOKEN);
    const file = tokenFileOf(dir, WEB_TOKEN);
    chownSync(file, 65534, 65534);
    expect(() => readToken(dir, WEB_TOKEN)).toThrow(`${file} belongs to another user (uid 65534), not to you (uid 0)`);
  });

  it('is refused, unread, when it is larger than a token file can be', () => {
    const dir = dataDir();
    readOrCreateToken(dir, WEB_TOKEN);
    const file = tokenFileOf(dir, WEB_TOKEN);
    writeFileSync(file, 'a'.repeat(10_000_000), { mode: 0o600 });
    expect(() => readToken(dir, WEB_TOKEN)).toThrow(`${file} holds 10000000 bytes, more than a token file can (4096)`);
  });

  it('is refused when it is a link, which rotate then replaces without touching what it pointed to', () => {
    const dir = dataDir();
    mkdirSync(dir, { recursive: true });
    const elsewhere = path.join(dir, '..', 'elsewhere');
    writeFileSync(elsewhere, 'x'.repeat(32), { mode: 0o600 });
    const file = tokenFileOf(dir, WEB_TOKEN);
    symlinkSync(elsewhere, file);
    expect(() => readToken(dir, WEB_TOKEN)).toThrow(`${file} is a symbolic link (to ${elsewhere})`);
    const token = rotateToken(dir, WEB_TOKEN);
    expect(lstatSync(file).isFile()).toBe(true);
    expect(readToken(dir, WEB_TOKEN)).toBe(token);
    expect(readFileSync(elsewhere, 'utf8')).toBe('x'.repeat(32));
  });

  it('rotate over a folder fails and leaves no token behind anywhere', () => {
    const dir = dataDir();
    mkdirSync(tokenFileOf(dir, WEB_TOKEN), { recursive: true });
    expect(() => rotateToken(dir, WEB_TOKEN)).toThrow(`${tokenFileOf(dir, WEB_TOKEN)} is a directory`);
    expect(readdirSync(dir)).toEqual(['web-token']);
    expect(readdirSync(tokenFileOf(dir, WEB_TOKEN))).toEqual([]);
  });

  it('rotate writes the new token 0600 in one step, with no file left beside it', () => {
    const dir = dataDir();
    readOrCreateToken(dir, WEB_TOKEN);
    chmodSync(tokenFileOf(dir, WEB_TOKEN), 0o644);
    const token = rotateToken(dir, WEB_TOKEN);
    expect(statSync(tokenFileOf(dir, WEB_TOKEN)).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['web-token']);
    expect(readToken(dir, WEB_TOKEN)).toBe(token);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });
});

describe('the stored MCP credential', () => {
  it('is its own file beside web-token, made, checked and rotated the same way, naming its own rotate', () => {
    const dir = dataDir();
    const web = readOrCreateToken(dir, WEB_TOKEN);
    const mcp = readOrCreateToken(dir, MCP_TOKEN);
    const file = tokenFileOf(dir, MCP_TOKEN);
    expect(file).toBe(path.join(dir, 'mcp-token'));
    expect(mcp).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(mcp).not.toBe(web);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readOrCreateToken(dir, MCP_TOKEN)).toBe(mcp);

    chmodSync(file, 0o644);
    expect(() => readToken(dir, MCP_TOKEN)).toThrow(
      `${file} can be read or written by other users (mode 0644), and the token lets whoever holds it control the home: make it private with \`chmod 600 ${file}\`, or replace it with \`home-agent token rotate --mcp\``,
    );
    const rotated = rotateToken(dir, MCP_TOKEN);
    expect(rotated).not.toBe(mcp);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readToken(dir, MCP_TOKEN)).toBe(rotated);
    // The web token is not touched by it, and no temporary file is left behind.
    expect(readToken(dir, WEB_TOKEN)).toBe(web);
    expect(readdirSync(dir).sort()).toEqual(['mcp-token', 'web-token']);

    rmSync(file);
    symlinkSync(tokenFileOf(dir, WEB_TOKEN), file);
    expect(() => readToken(dir, MCP_TOKEN)).toThrow(`${file} is a symbolic link`);
  });
});
