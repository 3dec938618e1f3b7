import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { StoreError } from './store-error.ts';

/** SQLite result codes that mean the write did not reach the disk (not a rule of the data). */
function failureKind(code: string): 'disk_full' | 'read_only' | 'write_failed' | undefined {
  if (code === 'SQLITE_FULL') return 'disk_full';
  if (code.startsWith('SQLITE_READONLY')) return 'read_only';
  if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_BUSY'))
    return 'write_failed';
  return undefined;
}

/**
 * Runs one write and turns a failure of the disk under it (full, read-only, I/O error, locked) into
 * a StoreError naming the file, what was being written and what to do. Other errors (constraints)
 * pass through unchanged for the caller to interpret. The write itself must throw when its commit
 * fails: use `.run()` or `.all()`, never `.get()` on `INSERT … RETURNING`, which returned a row
 * while the commit failed with SQLITE_FULL.
 */
export function checkedWrite<T>(options: { db: Database.Database; what: string }, write: () => T): T {
  try {
    return write();
  } catch (error) {
    throw diskFailure({ file: options.db.name, what: options.what, error }) ?? error;
  }
}

/** The StoreError for an error of the disk under `file`, or undefined when `error` is something else. */
export function diskFailure(options: { file: string; what: string; error: unknown }): StoreError | undefined {
  const { error, file } = options;
  const code = (error as { code?: unknown }).code;
  const kind = typeof code === 'string' ? failureKind(code) : undefined;
  if (kind === undefined) return undefined;
  return new StoreError(
    {
      kind,
      file,
      detail: `${options.what} was not written: ${(error as Error).message} (${code as string})`,
      hint: HINTS[kind](dirname(file)),
    },
    { cause: error },
  );
}

const HINTS: Record<'disk_full' | 'read_only' | 'write_failed', (folder: string) => string> = {
  disk_full: (folder) =>
    `Free space on the disk that holds ${folder}, or move the data folder (--data-dir); nothing after this write was stored.`,
  read_only: (folder) => `Make ${folder} and its files writable, or choose another --data-dir.`,
  write_failed: (folder) =>
    `Check the disk that holds ${folder} (its free space, permissions and health) and whether another program holds the database.`,
};
