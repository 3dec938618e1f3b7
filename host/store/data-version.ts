import type Database from 'better-sqlite3';

/**
 * SQLite's `PRAGMA data_version` on this connection: it changes when another connection (another
 * process, or another window's host) commits to the file, never for this connection's own writes.
 * One call costs a few microseconds, so it can be asked before every call that reads grants.
 */
export function dataVersionOf(db: Database.Database): () => number {
  const statement = db.prepare<[], number>('PRAGMA data_version').pluck();
  return () => statement.get() as number;
}
