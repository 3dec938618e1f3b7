import { closeSync, fstatSync, lstatSync, readSync, type BigIntStats } from 'node:fs';
import Database from 'better-sqlite3';
import { companionsOf, openStoreFileForReading } from './check-store-path.ts';
import { lstatIfPresent } from '../../devices/files/file-kind.ts';

/** Tries at reading a still file before SQLite reads it through the log a writer just started. */
const ATTEMPTS = 5;
/** Above this a store is read by SQLite itself (which may leave two empty companions) rather than copied into memory. */
const MAX_IMAGE_BYTES = 1024 ** 3;
/** Bytes 18 and 19 of the header: the file format's write and read versions, 2 for WAL mode. */
const FORMAT_BYTES = [18, 19] as const;

/**
 * Opens a store file read-only without creating anything beside it. SQLite's read-only connection
 * to a WAL-mode database creates its `-wal` and `-shm` when they are absent, and its documented way
 * around that, the `immutable` URI parameter, is out of reach (better-sqlite3 is built without URI
 * filenames). So: when a `-wal` is there (a writer is running, or stopped uncleanly) SQLite reads
 * through it and the existing index, seeing every committed row and creating nothing; a rollback-mode
 * file is read by SQLite directly; a WAL-mode file without a `-wal` has no connection open on it, so
 * it alone holds every committed row: it is read into memory and opened from there
 * (`sqlite3_deserialize`, its format bytes set to rollback mode as SQLite's documentation says to),
 * once nothing changed while it was read — else it tries again, and a writer that started meanwhile
 * is read through its log.
 */
export function openReadOnly(file: string): Database.Database {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    if (hasLog(file)) return openWithSqlite(file);
    const image = readStillImage(file);
    if (image === 'not-wal' || image === 'too-big') return openWithSqlite(file);
    if (image === 'changed') continue;
    for (const index of FORMAT_BYTES) image[index] = 1;
    return new Database(image, { readonly: true });
  }
  return openWithSqlite(file);
}

function openWithSqlite(file: string): Database.Database {
  return new Database(file, { readonly: true, fileMustExist: true });
}

function hasLog(file: string): boolean {
  return lstatIfPresent(companionsOf(file)[0]!) !== undefined;
}

/**
 * The whole file, when its header says WAL mode and nothing wrote to it or replaced it while it was
 * read; 'not-wal' for a rollback-mode (or empty) file, 'changed' when it moved under the read.
 */
function readStillImage(file: string): Buffer | 'not-wal' | 'too-big' | 'changed' {
  const descriptor = openStoreFileForReading(file);
  try {
    const before = fstatSync(descriptor, { bigint: true });
    const header = Buffer.alloc(FORMAT_BYTES[1] + 1);
    if (readSync(descriptor, header, 0, header.length, 0) < header.length) return 'not-wal';
    if (FORMAT_BYTES.some((index) => header[index] !== 2)) return 'not-wal';
    if (before.size > BigInt(MAX_IMAGE_BYTES)) return 'too-big';
    const image = Buffer.alloc(Number(before.size));
    let read = 0;
    while (read < image.length) {
      const got = readSync(descriptor, image, read, image.length - read, read);
      if (got === 0) return 'changed';
      read += got;
    }
    const longer = readSync(descriptor, Buffer.alloc(1), 0, 1, read) > 0;
    const still = !longer && same(before, fstatSync(descriptor, { bigint: true })) && !hasLog(file);
    // Renamed over meanwhile: the path now names another file.
    return still && lstatSync(file, { bigint: true }).ino === before.ino ? image : 'changed';
  } finally {
    closeSync(descriptor);
  }
}

function same(before: BigIntStats, after: BigIntStats): boolean {
  return before.size === after.size && before.mtimeNs === after.mtimeNs && before.ctimeNs === after.ctimeNs;
}
