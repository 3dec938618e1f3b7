import { closeSync, openSync, readFileSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrations } from '../../../host/store/migrations.ts';
import { openDatabase } from '../../../host/store/open-database.ts';
import { runMigrations } from '../../../host/store/run-migrations.ts';
import { StoreError } from '../../../host/store/store-error.ts';
import { pseudoRandomBytes, sha256Of, TempStoreFolder } from './temp-store-folder.ts';

// 'HmAg' in ASCII, written out by hand rather than imported from the code under test.
const OUR_APPLICATION_ID = 0x48_6d_41_67;
const OUR_TABLES = [
  'approval_pin',
  'conversations',
  'events',
  'mcp_servers',
  'mcp_tools',
  'messages',
  'model_contexts',
  'paired_devices',
  'pending_approvals',
  'pin_actions',
  'pin_attempts',
  'plugin_state',
  'request_parts',
  'sequences',
  'settings',
  'standing_approvals',
];
const SCHEMA_VERSION = 16;

let folder: TempStoreFolder;
beforeEach(() => {
  folder = new TempStoreFolder();
});
afterEach(() => folder.dispose());

function tablesOf(db: Database.Database): string[] {
  return db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all() as string[];
}

/** A healthy store file with enough rows to span many pages, closed (so checkpointed, no WAL). */
function writeHealthyStore(file: string): void {
  const db = openDatabase({ file });
  const insert = db.prepare('INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, 1, 1)');
  db.transaction(() => {
    for (let i = 0; i < 400; i += 1) insert.run(`c${i}`, 'x'.repeat(200));
  })();
  db.close();
}

/** Runs `open`, expects a StoreError of `kind`, and checks the file and folder were left exactly as they were. */
function expectRefused(file: string, kind: StoreError['kind']): StoreError {
  const before = sha256Of(file);
  const entriesBefore = folder.entries();
  let caught: unknown;
  try {
    folder.own(openDatabase({ file }));
  } catch (error) {
    caught = error;
  }
  expect(StoreError.isInstance(caught), `expected a StoreError, got ${String(caught)}`).toBe(true);
  const error = caught as StoreError;
  expect(error.kind).toBe(kind);
  expect(error.file).toBe(file);
  expect(error.message).toContain(file);
  expect(error.message).toContain('Move it aside or choose another --data-dir');
  expect(sha256Of(file)).toBe(before);
  // Not even a write-ahead log or its index appears beside a refused file.
  expect(folder.entries()).toEqual(entriesBefore);
  return error;
}

describe('openDatabase', () => {
  it('creates a new file (and its folder) in WAL mode with our application id and the whole schema', () => {
    const file = join(folder.path, 'nested', 'data', 'home-agent.db');
    const db = folder.own(openDatabase({ file }));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('application_id', { simple: true })).toBe(OUR_APPLICATION_ID);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(tablesOf(db)).toEqual(OUR_TABLES);
  });

  it('migrates an empty zero-byte file from version 0', () => {
    const file = folder.file();
    writeFileSync(file, '');
    const db = folder.own(openDatabase({ file }));
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(tablesOf(db)).toEqual(OUR_TABLES);
  });

  it('upgrades a file written at version 1 and keeps its rows', () => {
    const file = folder.file();
    const old = new Database(file);
    runMigrations({ db: old, file, migrations: migrations.slice(0, 1) });
    old.prepare("INSERT INTO conversations VALUES ('kept', 'Kitchen lights', 5, 6)").run();
    expect(old.pragma('user_version', { simple: true })).toBe(1);
    old.close();

    const db = folder.own(openDatabase({ file }));
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(tablesOf(db)).toEqual(OUR_TABLES);
    expect(db.prepare('SELECT id, title, created_at, updated_at FROM conversations').all()).toEqual([
      { id: 'kept', title: 'Kitchen lights', created_at: 5, updated_at: 6 },
    ]);
  });

  it('reopens its own file after a close without migrating again', () => {
    const file = folder.file();
    writeHealthyStore(file);
    const db = folder.own(openDatabase({ file }));
    expect(db.prepare('SELECT count(*) FROM conversations').pluck().get()).toBe(400);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
  });

  it('refuses a text file named .db as corrupt', () => {
    const file = folder.file();
    writeFileSync(file, 'provider = openai\nmodel = gpt-4o\n');
    expect(expectRefused(file, 'corrupt').detail).toContain('not a SQLite database');
  });

  it('refuses a file of random bytes as corrupt', () => {
    const file = folder.file();
    writeFileSync(file, pseudoRandomBytes(8192));
    expect(expectRefused(file, 'corrupt').detail).toContain('not a SQLite database');
  });

  it('refuses a SQLite file of another program (other application_id) as foreign', () => {
    const file = folder.file();
    const other = new Database(file);
    other.pragma('application_id = 0x0f055112'); // Fossil's id
    other.exec('CREATE TABLE blob (rid INTEGER PRIMARY KEY, content BLOB)');
    other.close();
    expect(expectRefused(file, 'foreign').detail).toContain('0x0f055112');
  });

  it('refuses a SQLite file with unknown tables and no application_id as foreign', () => {
    const file = folder.file();
    const other = new Database(file);
    other.exec(
      "CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT); INSERT INTO moz_places (url) VALUES ('https://example.org')",
    );
    other.close();
    expect(expectRefused(file, 'foreign').detail).toContain('moz_places');
  });

  it('refuses a store truncated to half its pages as corrupt', () => {
    const file = folder.file();
    writeHealthyStore(file);
    const size = readFileSync(file).length;
    truncateSync(file, Math.floor(size / 2 / 4096) * 4096);
    expect(expectRefused(file, 'corrupt').detail).toContain('truncated');
  });

  it('refuses a store cut inside its header as corrupt', () => {
    const file = folder.file();
    writeHealthyStore(file);
    truncateSync(file, 50);
    expect(expectRefused(file, 'corrupt').detail).toContain('truncated');
  });

  it('refuses a store whose pages were overwritten as corrupt', () => {
    const file = folder.file();
    writeHealthyStore(file);
    const descriptor = openSync(file, 'r+');
    writeSync(descriptor, pseudoRandomBytes(4096 * 3, 7), 0, 4096 * 3, 4096);
    closeSync(descriptor);
    expectRefused(file, 'corrupt');
  });

  it('refuses a store written by a newer version as too_new, before switching it to WAL', () => {
    const file = folder.file();
    writeHealthyStore(file);
    // A newer version might use another journal mode: setting WAL would rewrite the header.
    const raw = new Database(file);
    raw.pragma('journal_mode = DELETE');
    raw.pragma('user_version = 99');
    raw.close();
    const error = expectRefused(file, 'too_new');
    expect(error.detail).toContain('99');
    expect(error.message).toContain('Update Home Agent');
  });

  describe('read-only', () => {
    it('opens a current store without writing to it', () => {
      const file = folder.file();
      writeHealthyStore(file);
      const before = sha256Of(file);
      const entries = folder.entries();
      const db = folder.own(openDatabase({ file, readonly: true }));
      expect(db.prepare('SELECT count(*) FROM conversations').pluck().get()).toBe(400);
      expect(() => db.prepare("INSERT INTO conversations VALUES ('x', 'x', 1, 1)").run()).toThrow(/readonly/);
      expect(folder.entries()).toEqual(entries);
      db.close();
      expect(sha256Of(file)).toBe(before);
      expect(folder.entries()).toEqual(['home-agent.db']);
    });

    it('reports a missing file instead of creating it', () => {
      const file = folder.file();
      expect(() => openDatabase({ file, readonly: true })).toThrow(expect.objectContaining({ kind: 'missing', file }));
      expect(folder.entries()).toEqual([]);
    });

    it('refuses a store written by a newer version as too_new', () => {
      const file = folder.file();
      writeHealthyStore(file);
      const raw = new Database(file);
      raw.pragma('user_version = 99');
      raw.close();
      expect(() => folder.own(openDatabase({ file, readonly: true }))).toThrow(
        expect.objectContaining({ kind: 'too_new' }),
      );
    });

    it('reports an un-upgraded store as outdated', () => {
      const file = folder.file();
      const old = new Database(file);
      runMigrations({ db: old, file, migrations: migrations.slice(0, 2) });
      old.close();
      expect(() => openDatabase({ file, readonly: true })).toThrow(expect.objectContaining({ kind: 'outdated' }));
    });
  });
});
