import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../host/store/open-database.ts';
import { StoreError } from '../../../host/store/store-error.ts';
import { runCli } from '../../helpers/run-cli.ts';
import { TempStoreFolder } from './temp-store-folder.ts';

let folder: TempStoreFolder;
beforeEach(() => {
  folder = new TempStoreFolder();
});
afterEach(() => folder.dispose());

const environment = { HOME_AGENT_NO_OLLAMA_PROBE: '1' };

function refusal(open: () => unknown): StoreError {
  let caught: unknown;
  try {
    folder.own(open() as never);
  } catch (error) {
    caught = error;
  }
  expect(StoreError.isInstance(caught), `expected a StoreError, got ${String(caught)}`).toBe(true);
  return caught as StoreError;
}

function modeOf(path: string): string {
  return (statSync(path).mode & 0o777).toString(8);
}

describe('the store file', () => {
  it('refuses a database path that is a symbolic link, and the linked file stays as it was', () => {
    const unrelated = folder.file('notes.txt');
    writeFileSync(unrelated, '');
    const file = folder.file();
    symlinkSync(unrelated, file);
    for (const readonly of [false, true]) {
      const error = refusal(() => openDatabase({ file, readonly }));
      expect(error.kind).toBe('not_a_file');
      expect(error.message).toContain(`${file}: is a symbolic link (to ${unrelated})`);
      expect(error.hint).toMatch(/--data-dir/);
    }
    expect(readFileSync(unrelated)).toHaveLength(0);
    expect(folder.entries()).toEqual(['home-agent.db', 'notes.txt']);
  });

  it('refuses the link through `devices list`, `verify` and `export` (exit 1, the reason on stderr)', async () => {
    const unrelated = folder.file('notes.txt');
    writeFileSync(unrelated, '');
    symlinkSync(unrelated, folder.file());
    for (const command of [['devices', 'list'], ['verify'], ['export']]) {
      const run = await runCli([...command, '--data-dir', folder.path], { env: environment });
      expect(run.code, command.join(' ')).toBe(1);
      expect(run.stderr, command.join(' ')).toContain('is a symbolic link');
    }
    expect(readFileSync(unrelated)).toHaveLength(0);
    expect(folder.entries()).toEqual(['home-agent.db', 'notes.txt']);
  });

  it('refuses a folder or a FIFO at the database path without opening it', () => {
    const file = folder.file();
    mkdirSync(file);
    expect(refusal(() => openDatabase({ file })).message).toContain(`${file}: is a directory, not a regular file`);
    folder.dispose();
    folder = new TempStoreFolder();
    const fifo = folder.file();
    execFileSync('mkfifo', [fifo]);
    // Opening a FIFO for reading would wait for a writer for ever: refused before it is opened.
    for (const readonly of [false, true])
      expect(refusal(() => openDatabase({ file: fifo, readonly })).message).toContain('is a FIFO, not a regular file');
    expect(folder.entries()).toEqual(['home-agent.db']);
  });

  it('refuses a write-ahead log that is a link, naming it', () => {
    const file = folder.file();
    folder.own(openDatabase({ file })).close();
    const unrelated = folder.file('notes.txt');
    writeFileSync(unrelated, '');
    symlinkSync(unrelated, `${file}-wal`);
    const error = refusal(() => openDatabase({ file }));
    expect(error.message).toContain(`${file}-wal: is a symbolic link (to ${unrelated})`);
    expect(readFileSync(unrelated)).toHaveLength(0);
  });

  it('takes an empty regular file as a new store', () => {
    const file = folder.file();
    writeFileSync(file, '');
    const db = folder.own(openDatabase({ file }));
    expect(db.pragma('user_version', { simple: true })).toBeGreaterThan(0);
  });

  it('creates the data folder 0700 and the store and its companions 0600', () => {
    const dataDir = join(folder.path, 'new', 'data');
    const file = join(dataDir, 'home-agent.db');
    const db = folder.own(openDatabase({ file }));
    db.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('maxSteps', '3', 1)").run();
    expect(modeOf(join(folder.path, 'new'))).toBe('700');
    expect(modeOf(dataDir)).toBe('700');
    expect(readdirSync(dataDir).sort()).toEqual(['home-agent.db', 'home-agent.db-shm', 'home-agent.db-wal']);
    for (const name of readdirSync(dataDir)) expect(modeOf(join(dataDir, name)), name).toBe('600');
  });

  it('uses an existing folder as it is', () => {
    const dataDir = join(folder.path, 'shared');
    mkdirSync(dataDir, { mode: 0o755 });
    execFileSync('chmod', ['0755', dataDir]);
    folder.own(openDatabase({ file: join(dataDir, 'home-agent.db') }));
    expect(modeOf(dataDir)).toBe('755');
    expect(modeOf(join(dataDir, 'home-agent.db'))).toBe('600');
    expect(existsSync(join(dataDir, 'home-agent.db'))).toBe(true);
  });
});
