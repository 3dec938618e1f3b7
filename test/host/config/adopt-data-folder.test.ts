import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { adoptDataFolder } from '../../../host/config/adopt-data-folder.ts';
import { resolveDataDir } from '../../../host/config/data-dir.ts';
import { openDatabase } from '../../../host/store/open-database.ts';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function scratch(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'home-agent-adopt-'));
  folders.push(folder);
  return folder;
}

/** A folder laid out as Electron's userData of an earlier version: the home's files beside the browser engine's. */
function oldWindowFolder(root: string): string {
  const from = path.join(root, 'config', 'home-agent');
  mkdirSync(path.join(from, 'Local Storage'), { recursive: true });
  const db = openDatabase({ file: path.join(from, 'home-agent.db') });
  db.close();
  writeFileSync(path.join(from, 'web-token'), 'old-window-token-0123456789\n', { mode: 0o600 });
  writeFileSync(path.join(from, 'secrets.json'), '{}', { mode: 0o600 });
  writeFileSync(path.join(from, 'Preferences'), '{}');
  return from;
}

describe('adoptDataFolder', () => {
  it("moves the window's home into the CLI's folder once, and leaves the browser engine's files", () => {
    const root = scratch();
    const from = oldWindowFolder(root);
    const to = path.join(root, 'share', 'home-agent');
    const report = adoptDataFolder({ from, to });
    expect(report).toBe(
      `moved this home (home-agent.db, web-token, secrets.json) from ${from} to ${to}, the one data folder of the window and the CLI`,
    );
    expect(readdirSync(to).sort()).toEqual(['home-agent.db', 'secrets.json', 'web-token']);
    expect(readFileSync(path.join(to, 'web-token'), 'utf8')).toBe('old-window-token-0123456789\n');
    expect(readdirSync(from).sort()).toEqual(['Local Storage', 'Preferences']);
    // Once: a second start finds nothing to move and says nothing.
    expect(adoptDataFolder({ from, to })).toBeUndefined();
  });

  it('moves nothing when the data folder holds a home already, and says which one is used', () => {
    const root = scratch();
    const from = oldWindowFolder(root);
    const to = path.join(root, 'share', 'home-agent');
    mkdirSync(to, { recursive: true });
    openDatabase({ file: path.join(to, 'home-agent.db') }).close();
    expect(adoptDataFolder({ from, to })).toBe(
      `${from} also holds a home (from an earlier version); the one in ${to} is used and the other was left as it is`,
    );
    expect(existsSync(path.join(from, 'home-agent.db'))).toBe(true);
    expect(existsSync(path.join(to, 'web-token'))).toBe(false);
  });

  it('does nothing when the two are one folder or the old one holds no home', () => {
    const root = scratch();
    expect(adoptDataFolder({ from: root, to: root })).toBeUndefined();
    expect(adoptDataFolder({ from: path.join(root, 'none'), to: path.join(root, 'to') })).toBeUndefined();
    expect(existsSync(path.join(root, 'to'))).toBe(false);
  });
});

describe('resolveDataDir', () => {
  it('is one folder on Linux for every front end: $XDG_DATA_HOME/home-agent', () => {
    const saved = { ...process.env };
    try {
      delete process.env.HOME_AGENT_DATA_DIR;
      process.env.XDG_DATA_HOME = '/home/someone/.local/share';
      expect(resolveDataDir()).toBe('/home/someone/.local/share/home-agent');
    } finally {
      process.env = saved;
    }
  });
});
