import { closeSync, constants, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { createDataDir } from '../config/data-dir.ts';
import { checkStorePath } from './check-store-path.ts';
import { inspectDatabaseFile, openInspectedDatabase } from './inspect-database-file.ts';
import { migrations } from './migrations.ts';
import { runMigrations } from './run-migrations.ts';
import { StoreError } from './store-error.ts';
import { findUnwritable } from './find-unwritable.ts';
import { diskFailure } from './checked-write.ts';

export interface OpenDatabaseOptions {
  /** The store's file in the data folder; created (0600, with its folder 0700) when absent, unless read-only. */
  file: string;
  /** Open without writing or creating anything (no `-wal`, no `-shm`): no migration, no journal-mode change. */
  readonly?: boolean;
  /** Read-only: accept a file an older Home Agent wrote (tables added since are missing; the caller copes). */
  olderSchema?: boolean;
}

/**
 * Opens the Home Agent store: checks the file first and refuses (StoreError `not_a_file` |
 * `corrupt` | `foreign` | `too_new`, never touching the file) when it is a link, not a regular file,
 * not ours or not usable, or `read_only` (naming the path and the cause) when it cannot be written;
 * then sets WAL, `synchronous=NORMAL`, foreign keys, and runs pending migrations. A store it creates
 * is 0600 (SQLite gives its `-wal` and `-shm` the same mode) in a folder it creates 0700. Read-only,
 * nothing is written or created (openReadOnly). The caller owns and closes it.
 */
export function openDatabase(options: OpenDatabaseOptions): Database.Database {
  const { file } = options;
  if (options.readonly === true) return openReadonly({ file, olderSchema: options.olderSchema === true });
  // A link is refused before anything follows it, even to check whether its target is writable.
  checkStorePath(file);
  // Checked next: inspecting a store in a read-only folder fails with SQLite's bare "unable to open database file".
  const unwritable = findUnwritable(file);
  if (unwritable !== undefined) {
    throw new StoreError({
      kind: 'read_only',
      file,
      detail: unwritable,
      hint: 'Make that folder writable (remount it read-write, or change its owner or permissions), or choose another folder with --data-dir or HOME_AGENT_DATA_DIR.',
    });
  }
  const state = inspectDatabaseFile(file);
  let db: Database.Database;
  try {
    createDataDir(dirname(file));
    if (!state.exists && !createEmptyStoreFile(file)) inspectDatabaseFile(file);
    db = new Database(file, { fileMustExist: true });
  } catch (error) {
    throw diskFailure({ file, what: 'the database', error }) ?? error;
  }
  try {
    // WAL + NORMAL: a killed process loses no committed statement; only an OS crash may lose the last ones.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    runMigrations({ db, file });
    return db;
  } catch (error) {
    db.close();
    throw diskFailure({ file, what: 'the database', error }) ?? error;
  }
}

/**
 * Creates the store's file, empty (a new store to SQLite), 0600, never through a link; false when
 * something created it meanwhile (the caller inspects that instead).
 */
function createEmptyStoreFile(file: string): boolean {
  let descriptor: number;
  try {
    descriptor = openSync(
      file,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  closeSync(descriptor);
  return true;
}

function openReadonly(options: { file: string; olderSchema: boolean }): Database.Database {
  const { file } = options;
  const inspected = openInspectedDatabase(file);
  if (inspected === undefined) {
    throw new StoreError({
      kind: 'missing',
      file,
      detail: 'does not exist',
      hint: 'Start Home Agent once without read-only mode, or check --data-dir.',
    });
  }
  const { db, userVersion } = inspected;
  if (userVersion < migrations.length && !options.olderSchema) {
    db.close();
    throw new StoreError({
      kind: 'outdated',
      file,
      detail: `has schema version ${userVersion}, this Home Agent needs ${migrations.length} and read-only mode cannot upgrade it`,
      hint: 'Open it once without read-only mode.',
    });
  }
  db.pragma('foreign_keys = ON');
  return db;
}
