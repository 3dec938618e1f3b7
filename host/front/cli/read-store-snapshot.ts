import { databaseFileOf, resolveDataDir } from '../../config/data-dir.ts';
import type { InvalidRowReport } from '../../store/parse-stored-row.ts';
import { openDatabase } from '../../store/open-database.ts';
import { SqliteConversationStore } from '../../store/sqlite-conversation-store.ts';
import type Database from 'better-sqlite3';

/**
 * Reads the data folder's store without writing to it, in one read transaction (a `serve` writing
 * meanwhile cannot make the result half old, half new), and closes it. For `export` and `verify`.
 */
export async function readStoreSnapshot<T>(options: {
  dataDir: string | undefined;
  /** Also read a store an older version wrote (verify reports on it instead of refusing it). */
  olderSchema?: boolean;
  onInvalidRow: (report: InvalidRowReport) => void;
  read: (parts: { db: Database.Database; store: SqliteConversationStore; file: string }) => T | Promise<T>;
}): Promise<T> {
  const file = databaseFileOf(resolveDataDir(options.dataDir));
  const db = openDatabase({ file, readonly: true, ...(options.olderSchema ? { olderSchema: true } : {}) });
  try {
    const store = new SqliteConversationStore({ db, onInvalidRow: options.onInvalidRow });
    db.exec('BEGIN');
    try {
      return await options.read({ db, store, file });
    } finally {
      db.exec('COMMIT');
    }
  } finally {
    db.close();
  }
}
