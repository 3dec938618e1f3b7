import { chmod, lstat, mkdir } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { otherOwner } from '../files/file-kind.ts';

/** A folder another process could have planted or may read: named with what is wrong and the fix. */
export class PrivateDirectoryError extends Error {
  override readonly name = 'PrivateDirectoryError';
}

/**
 * Makes `directory` (and missing parents) readable by this user only, or checks the one there: it
 * must be a real folder (never a link) owned by this user. One of ours that others may read is made
 * private (0700); one of another user's is refused, since whatever it holds is that user's word.
 */
export async function ensurePrivateDirectory(directory: string): Promise<void> {
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const stats = await lstat(directory);
  const problem = problemOf(stats);
  if (problem !== undefined) throw new PrivateDirectoryError(`${directory} ${problem}`);
  if ((stats.mode & 0o077) !== 0) await chmod(directory, 0o700);
}

/** Whether `directory` is a folder of this user's (so what it holds may be read as this user's own). Never throws. */
export async function isOwnDirectory(directory: string): Promise<boolean> {
  try {
    return problemOf(await lstat(directory)) === undefined;
  } catch {
    // Missing or unreadable: nothing in it to believe.
    return false;
  }
}

function problemOf(stats: Stats): string | undefined {
  if (stats.isSymbolicLink())
    return 'is a symbolic link: Home Agent keeps its simulator index only in a folder of its own; remove the link';
  if (!stats.isDirectory()) return 'is not a folder: remove it, or point HOME_AGENT_SIM_INDEX elsewhere';
  const other = otherOwner(stats);
  if (other !== undefined)
    return `belongs to another user (uid ${other.owner}), not to you (uid ${other.you}): what it holds is not yours to trust. Remove it, or point HOME_AGENT_SIM_INDEX at a folder of your own`;
  return undefined;
}
