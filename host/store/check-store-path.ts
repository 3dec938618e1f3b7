import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { fileKind, linkTarget, lstatIfPresent } from '../../devices/files/file-kind.ts';
import { MOVE_ASIDE_HINT, StoreError } from './store-error.ts';

/** The files SQLite keeps beside a WAL-mode database: its write-ahead log and its shared-memory index. */
export function companionsOf(file: string): string[] {
  return [`${file}-wal`, `${file}-shm`];
}

const LINK_HINT =
  'Home Agent opens only a regular file there, never a link, so nothing can make it write to another file; the link and what it points to were left untouched. If the store really is the linked file, point --data-dir (or HOME_AGENT_DATA_DIR) at the folder that holds it; otherwise remove the link.';

/**
 * Refuses (StoreError `not_a_file`, before anything is opened) a database path, or a write-ahead log
 * or shared-memory file beside it, that is a symbolic link or not a regular file: SQLite follows a
 * link and would turn any file it points to into a database; a FIFO would block the open for ever.
 * Returns whether the database file exists.
 */
export function checkStorePath(file: string): boolean {
  let exists = false;
  for (const path of [file, ...companionsOf(file)]) {
    const stats = lstatIfPresent(path);
    if (stats === undefined) continue;
    if (stats.isSymbolicLink())
      throw new StoreError({
        kind: 'not_a_file',
        file: path,
        detail: `is a symbolic link (to ${linkTarget(path)})`,
        hint: LINK_HINT,
      });
    if (!stats.isFile())
      throw new StoreError({
        kind: 'not_a_file',
        file: path,
        detail: `is ${fileKind(stats)}, not a regular file`,
        hint: MOVE_ASIDE_HINT,
      });
    if (path === file) exists = true;
  }
  return exists;
}

/**
 * Opens the database file for reading without following a link and without blocking on a FIFO
 * (checkStorePath refused both already; this closes the race), and refuses what is not a regular
 * file. Returns the descriptor; the caller closes it.
 */
export function openStoreFileForReading(file: string): number {
  const descriptor = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  const stats = fstatSync(descriptor);
  if (stats.isFile()) return descriptor;
  closeSync(descriptor);
  throw new StoreError({
    kind: 'not_a_file',
    file,
    detail: `is ${fileKind(stats)}, not a regular file`,
    hint: MOVE_ASIDE_HINT,
  });
}
