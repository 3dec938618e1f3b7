import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { createDataDir } from '../config/data-dir.ts';
import { fileKind, linkTarget, otherOwner } from '../../devices/files/file-kind.ts';

/**
 * A credential kept in a file of the data folder (the web and MCP tokens, an MCP server's sign-in
 * where there is no keychain): read only from a regular file of this user's that nobody else may
 * read, and small; written whole or not at all. Checked here once; each kind of file says what went
 * wrong, and what to do, in its own words.
 */

/** Why a credential file cannot be used. */
export type OwnerOnlyProblem =
  /** A symbolic link, never followed. */
  | { kind: 'link'; target: string }
  /** A directory, a FIFO, a device (`is`: what it is, in words). */
  | { kind: 'not-a-file'; is: string }
  | { kind: 'other-owner'; owner: number; you: number }
  /** Group or other users may read or write it (`mode`: its four octal digits). */
  | { kind: 'shared'; mode: string }
  | { kind: 'too-big'; size: number; maxBytes: number }
  /** It could not be opened for another reason (`message`: the system's). */
  | { kind: 'unreadable'; message: string };

/**
 * The text of `file`, or undefined when there is none. It must be a regular file (never a link, a FIFO
 * or a device), this user's, readable by nobody else, and at most `maxBytes`; otherwise what
 * `refuse` makes of the problem is thrown. It is read without following a link or blocking, and
 * never past `maxBytes`.
 */
export function readOwnerOnlyFile(
  file: string,
  options: { maxBytes: number; refuse: (problem: OwnerOnlyProblem) => Error },
): string | undefined {
  const { maxBytes, refuse } = options;
  let descriptor: number;
  try {
    // Neither follows a link nor waits for a FIFO's writer.
    descriptor = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw refuse({ kind: 'link', target: linkTarget(file) });
    throw refuse({ kind: 'unreadable', message: (error as Error).message });
  }
  try {
    const problem = problemOf(fstatSync(descriptor), maxBytes);
    if (problem) throw refuse(problem);
    const buffer = Buffer.alloc(maxBytes + 1);
    const read = readSync(descriptor, buffer, 0, buffer.length, 0);
    if (read > maxBytes) throw refuse({ kind: 'too-big', size: read, maxBytes });
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(descriptor);
  }
}

function problemOf(stats: Stats, maxBytes: number): OwnerOnlyProblem | undefined {
  if (!stats.isFile()) return { kind: 'not-a-file', is: fileKind(stats) };
  // Windows has no owner-only mode bits to check; its ACLs keep a profile's folders private.
  if (process.platform !== 'win32') {
    const other = otherOwner(stats);
    if (other !== undefined) return { kind: 'other-owner', ...other };
    if ((stats.mode & 0o077) !== 0) return { kind: 'shared', mode: (stats.mode & 0o777).toString(8).padStart(4, '0') };
  }
  if (stats.size > maxBytes) return { kind: 'too-big', size: stats.size, maxBytes };
  return undefined;
}

/**
 * Writes `text` to a private file (0600) beside `file`, fsyncs it and renames it over (a link there
 * is replaced, never followed): a reader sees the old content or the new, never half of it. On any
 * failure the new file is removed, so nothing is left behind, and the system's error is thrown.
 */
export function writeOwnerOnlyFile(file: string, text: string): void {
  createDataDir(path.dirname(file));
  const partial = `${file}.${randomBytes(8).toString('hex')}.partial`;
  let renamed = false;
  try {
    const descriptor = openSync(
      partial,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      writeSync(descriptor, text);
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
    renameSync(partial, file);
    renamed = true;
  } finally {
    if (!renamed) rmSync(partial, { force: true });
  }
}

/** Removes `file` (a link there is removed, never followed); true when there was one. */
export function removeOwnerOnlyFile(file: string): boolean {
  try {
    rmSync(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
