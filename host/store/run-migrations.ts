import type Database from 'better-sqlite3';
import { migrations as allMigrations, type Migration } from './migrations.ts';
import { MOVE_ASIDE_HINT, StoreError } from './store-error.ts';

export interface RunMigrationsOptions {
  db: Database.Database;
  /** For error messages. */
  file: string;
  /** Defaults to the app's migrations; tests pass a prefix to build files of an older version. */
  migrations?: readonly Migration[];
}

/**
 * Brings the schema to `migrations.length`, one IMMEDIATE transaction per step (the migration and
 * its `user_version` bump commit together), re-reading the version inside each so two processes
 * opening one file at once never run a step twice. Returns the versions it moved through.
 */
export function runMigrations(options: RunMigrationsOptions): { from: number; to: number } {
  const { db, file } = options;
  const migrations = options.migrations ?? allMigrations;
  const from = db.pragma('user_version', { simple: true }) as number;
  const step = db.transaction((): boolean => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > migrations.length) {
      throw new StoreError({
        kind: 'too_new',
        file,
        detail: `was upgraded by a newer Home Agent meanwhile (schema version ${version})`,
        hint: `Update Home Agent. ${MOVE_ASIDE_HINT}`,
      });
    }
    const migrate = migrations[version];
    if (migrate === undefined) return false;
    migrate(db);
    db.pragma(`user_version = ${version + 1}`);
    return true;
  });
  while (step.immediate()) {
    // one step per transaction; the loop ends when no migration is left
  }
  return { from, to: db.pragma('user_version', { simple: true }) as number };
}
