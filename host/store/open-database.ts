import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { inspectDatabaseFile } from './inspect-database-file.ts';
import { migrations } from './migrations.ts';
import { runMigrations } from './run-migrations.ts';
import { StoreError } from './store-error.ts';
import { findUnwritable } from './find-unwritable.ts';
import { diskFailure } from './checked-write.ts';

export interface OpenDatabaseOptions {
  /** The store's file in the data folder; created (with its folder) when absent, unless read-only. */
  file: string;
  /** Open without writing anything: no migration, no journal-mode change. */
  readonly?: boolean;
  /** Read-only: accept a file an older Home Agent wrote (tables added since are missing; the caller copes). */
  olderSchema?: boolean;
}

/**
 * Opens the Home Agent store: checks the file first and refuses (StoreError `corrupt` | `foreign` |
 * `too_new`, never touching the file) when it is not ours or not usable, or `read_only` (naming the
 * path and the cause) when it cannot be written; then sets WAL, `synchronous=NORMAL`, foreign
 * keys, and runs pending migrations. The caller owns and closes it.
 */
export function openDatabase(options: OpenDatabaseOptions): Database.Database {
  const { file } = options;
  // Checked first: inspecting a store in a read-only folder fails with SQLite's bare "unable to open database file".
  const unwritable = options.readonly === true ? undefined : findUnwritable(file);
  if (unwritable !== undefined) {
    throw new StoreError({
      kind: 'read_only',
      file,
      detail: unwritable,
      hint: 'Make that folder writable (remount it read-write, or change its owner or permissions), or choose another folder with --data-dir or HOME_AGENT_DATA_DIR.',
    });
  }
  const state = inspectDatabaseFile(file);
  if (options.readonly === true)
    return openReadonly({
      file,
      userVersion: state.exists ? state.userVersion : undefined,
      olderSchema: options.olderSchema === true,
    });
  let db: Database.Database;
  try {
    mkdirSync(dirname(file), { recursive: true });
    db = new Database(file);
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

function openReadonly(options: {
  file: string;
  userVersion: number | undefined;
  olderSchema: boolean;
}): Database.Database {
  const { file, userVersion } = options;
  if (userVersion === undefined) {
    throw new StoreError({
      kind: 'missing',
      file,
      detail: 'does not exist',
      hint: 'Start Home Agent once without read-only mode, or check --data-dir.',
    });
  }
  if (userVersion < migrations.length && !options.olderSchema) {
    throw new StoreError({
      kind: 'outdated',
      file,
      detail: `has schema version ${userVersion}, this Home Agent needs ${migrations.length} and read-only mode cannot upgrade it`,
      hint: 'Open it once without read-only mode.',
    });
  }
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('foreign_keys = ON');
  return db;
}
