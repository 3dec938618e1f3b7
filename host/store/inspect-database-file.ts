import { closeSync, readSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { checkStorePath, openStoreFileForReading } from './check-store-path.ts';
import { APPLICATION_ID, migrations } from './migrations.ts';
import { openReadOnly } from './open-read-only.ts';
import { MOVE_ASIDE_HINT, StoreError } from './store-error.ts';

/** What a file that may be opened looks like: absent, or ours at some schema version. */
export type DatabaseFileState = { exists: false } | { exists: true; userVersion: number };

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const HEADER_BYTES = 100;

/**
 * Decides, without writing or creating a byte, whether `file` may be opened as our store. Throws a
 * StoreError `not_a_file` (a link, a folder, a FIFO…: checkStorePath), `corrupt` (not SQLite,
 * truncated, failing quick_check), `foreign` (another program's database) or `too_new` (a schema
 * version newer than `migrations`).
 */
export function inspectDatabaseFile(file: string): DatabaseFileState {
  const inspected = openInspectedDatabase(file);
  if (inspected === undefined) return { exists: false };
  inspected.db.close();
  return { exists: true, userVersion: inspected.userVersion };
}

/**
 * inspectDatabaseFile, handing back the read-only connection it checked the file with (opened by
 * openReadOnly: nothing is created beside the file); undefined when there is no file. The caller closes it.
 */
export function openInspectedDatabase(file: string): { db: Database.Database; userVersion: number } | undefined {
  if (!checkStorePath(file)) return undefined;
  checkHeader(file, readHeader(file));
  return inspectWithSqlite(file);
}

function readHeader(file: string): Buffer {
  const descriptor = openStoreFileForReading(file);
  try {
    const header = Buffer.alloc(HEADER_BYTES);
    const read = readSync(descriptor, header, 0, HEADER_BYTES, 0);
    return header.subarray(0, read);
  } finally {
    closeSync(descriptor);
  }
}

function corrupt(file: string, detail: string, cause?: unknown): StoreError {
  return new StoreError({ kind: 'corrupt', file, detail, hint: MOVE_ASIDE_HINT }, { cause });
}

function checkHeader(file: string, header: Buffer): void {
  // SQLite itself treats a zero-byte file as an empty database (e.g. one created by `touch`).
  if (header.length === 0) return;
  if (header.length < SQLITE_MAGIC.length || !header.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) {
    throw corrupt(file, 'is not a SQLite database (it does not start with the SQLite header)');
  }
  if (header.length < HEADER_BYTES)
    throw corrupt(file, `is truncated: ${header.length} bytes, shorter than the ${HEADER_BYTES}-byte SQLite header`);
  const rawPageSize = header.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65_536 : rawPageSize;
  if (pageSize < 512 || pageSize > 65_536 || (pageSize & (pageSize - 1)) !== 0) {
    throw corrupt(file, `has an impossible page size in its header (${rawPageSize})`);
  }
  // The header's page count is only authoritative when its change counter matches version-valid-for,
  // and a non-empty WAL may legitimately hold pages a checkpoint has not copied back yet.
  const pages = header.readUInt32BE(28);
  const countValid = pages > 0 && header.readUInt32BE(24) === header.readUInt32BE(92);
  const size = statSync(file).size;
  if (countValid && !walHasContent(file) && size < pages * pageSize) {
    throw corrupt(
      file,
      `is truncated: its header says ${pages} pages of ${pageSize} bytes (${pages * pageSize} bytes), the file holds ${size}`,
    );
  }
}

function walHasContent(file: string): boolean {
  try {
    return statSync(`${file}-wal`).size > 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

function inspectWithSqlite(file: string): { db: Database.Database; userVersion: number } {
  let db: Database.Database;
  try {
    db = openReadOnly(file);
  } catch (error) {
    if (StoreError.isInstance(error)) throw error;
    throw corrupt(file, `cannot be opened by SQLite (${(error as Error).message})`, error);
  }
  try {
    checkIntegrity(file, db);
    checkOwnership(file, db);
    const userVersion = db.pragma('user_version', { simple: true }) as number;
    if (userVersion > migrations.length) {
      throw new StoreError({
        kind: 'too_new',
        file,
        detail: `was written by a newer Home Agent (schema version ${userVersion}; this one knows up to ${migrations.length})`,
        hint: `Update Home Agent. ${MOVE_ASIDE_HINT}`,
      });
    }
    return { db, userVersion };
  } catch (error) {
    db.close();
    if (StoreError.isInstance(error)) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_NOTADB' || (typeof code === 'string' && code.startsWith('SQLITE_CORRUPT'))) {
      throw corrupt(file, `is damaged (${(error as Error).message})`, error);
    }
    throw error;
  }
}

function checkIntegrity(file: string, db: Database.Database): void {
  const rows = db.pragma('quick_check', { simple: false }) as Array<{ quick_check: string }>;
  const problems = rows.map((row) => row.quick_check).filter((line) => line !== 'ok');
  if (problems.length > 0) {
    const shown = problems.slice(0, 3).join('; ');
    const more = problems.length > 3 ? ` and ${problems.length - 3} more` : '';
    throw corrupt(file, `fails SQLite's quick_check: ${shown}${more}`);
  }
}

function checkOwnership(file: string, db: Database.Database): void {
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  if (applicationId === APPLICATION_ID) return;
  if (applicationId !== 0) {
    const hex = `0x${(applicationId >>> 0).toString(16).padStart(8, '0')}`;
    throw new StoreError({
      kind: 'foreign',
      file,
      detail: `belongs to another program (its application_id is ${hex}, ours is 0x${APPLICATION_ID.toString(16)})`,
      hint: MOVE_ASIDE_HINT,
    });
  }
  const tables = db
    .prepare(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
    )
    .pluck()
    .all() as string[];
  const known = knownTables();
  const unknown = tables.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    const shown = unknown.slice(0, 5).join(', ') + (unknown.length > 5 ? ', …' : '');
    throw new StoreError({
      kind: 'foreign',
      file,
      detail: `holds tables Home Agent does not know (${shown}) and no Home Agent application_id`,
      hint: MOVE_ASIDE_HINT,
    });
  }
}

let knownTableNames: ReadonlySet<string> | undefined;

/** The tables our migrations create, read from a scratch in-memory run so no list is kept by hand. */
function knownTables(): ReadonlySet<string> {
  if (knownTableNames !== undefined) return knownTableNames;
  const scratch = new Database(':memory:');
  try {
    for (const migrate of migrations) migrate(scratch);
    knownTableNames = new Set(
      scratch.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[],
    );
    return knownTableNames;
  } finally {
    scratch.close();
  }
}
