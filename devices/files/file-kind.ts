import { lstatSync, readlinkSync, type BigIntStats, type Stats } from 'node:fs';

/**
 * What a path on disk is, told without following a link: the checks the store, the token files, the
 * serial ports and the simulator's folder make before they trust a path, written once.
 */

/** The path's own status (a link is not followed), or undefined when nothing is there. */
export function lstatIfPresent(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** What kind of file a status names, in words (`a directory`, `a FIFO`). */
export function fileKind(stats: Stats | BigIntStats): string {
  if (stats.isFile()) return 'a regular file';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'an unusual kind of file';
}

/** Where a link points, for a refusal that names it; `somewhere else` once it is gone or changed. */
export function linkTarget(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    // Gone or changed since it was refused: the refusal still stands, without the target.
    return 'somewhere else';
  }
}

/**
 * The owner and this user, when a file belongs to another user; undefined when it is this user's,
 * or where the system has no owner uid to compare (Windows: its profile folders are private already).
 */
export function otherOwner(stats: { uid: number }): { owner: number; you: number } | undefined {
  const you = process.getuid?.();
  return you !== undefined && stats.uid !== you ? { owner: stats.uid, you } : undefined;
}
