import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { WEB_TOKEN_FILE, type TokenFileName } from '../config/token-file-name.ts';
import { readOwnerOnlyFile, writeOwnerOnlyFile, type OwnerOnlyProblem } from './owner-only-file.ts';

/** A credential kept in a file of the data folder: its file name, what a person calls it, and the command that replaces it. */
export interface TokenFileKind {
  fileName: TokenFileName;
  label: string;
  rotateCommand: string;
}

/** The person's front ends' credential (window, browser UI, terminal): `web-token`. */
export const WEB_TOKEN: TokenFileKind = {
  fileName: WEB_TOKEN_FILE,
  label: 'web token',
  rotateCommand: '`home-agent token rotate`',
};

/** The file of a kind of token in the data folder: readable by its owner only. */
export function tokenFileOf(dataDir: string, kind: TokenFileKind): string {
  return path.join(dataDir, kind.fileName);
}

/** A token a person can guess or brute-force is no protection; generated ones are 32 characters. */
export const MIN_TOKEN_LENGTH = 16;
/** A token worth keeping: URL-safe (it travels in `#token=`), at least MIN_TOKEN_LENGTH characters (not guessable). */
const TOKEN_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${MIN_TOKEN_LENGTH},512}$`);
/** The most a token file is read: a token of 512 characters with room for line ends and spaces. */
const MAX_TOKEN_FILE_BYTES = 4096;

/** The stored token is missing its shape: named with its file and what to do. */
export class TokenFileError extends Error {
  override readonly name = 'TokenFileError';
}

/**
 * The token of `kind` kept in the data folder, made (32 random URL-safe characters, file mode 0600)
 * the first time, so what `serve` prints, a bookmark and an open tab stay valid across restarts.
 * A file that does not hold a usable token is reported, never overwritten.
 */
export function readOrCreateToken(dataDir: string, kind: TokenFileKind): string {
  return readToken(dataDir, kind) ?? writeNewToken(dataDir, kind);
}

/**
 * The stored token of `kind`, or undefined when none was made yet. The file must be a regular file (never a
 * link, a FIFO or a device), owned by this user, readable by nobody else, and small; otherwise a
 * TokenFileError says why and how to fix it. It is read without blocking and never past that size.
 */
export function readToken(dataDir: string, kind: TokenFileKind): string | undefined {
  const file = tokenFileOf(dataDir, kind);
  const rotate = kind.rotateCommand;
  const text = readOwnerOnlyFile(file, {
    maxBytes: MAX_TOKEN_FILE_BYTES,
    refuse: (problem) => new TokenFileError(tokenFileProblem({ file, label: kind.label, rotate, problem })),
  });
  if (text === undefined) return undefined;
  const token = text.trim();
  if (!TOKEN_PATTERN.test(token))
    throw new TokenFileError(
      `${file} does not hold a usable token (16–512 letters, digits, - or _): replace it with ${rotate}`,
    );
  return token;
}

/** What is wrong with a token file, and how to fix it. */
function tokenFileProblem(options: { file: string; label: string; rotate: string; problem: OwnerOnlyProblem }): string {
  const { file, label, rotate, problem } = options;
  switch (problem.kind) {
    case 'link':
      return `${file} is a symbolic link (to ${problem.target}): the token is read only from a regular file of the data folder. Replace it with ${rotate}`;
    case 'unreadable':
      return `cannot read the ${label} ${file}: ${problem.message}`;
    case 'not-a-file':
      return `${file} is ${problem.is}, not a regular file: remove it, then make a new token with ${rotate}`;
    case 'other-owner':
      return `${file} belongs to another user (uid ${problem.owner}), not to you (uid ${problem.you}): someone else chose this token. Replace it with ${rotate}`;
    case 'shared':
      return `${file} can be read or written by other users (mode ${problem.mode}), and the token lets whoever holds it control the home: make it private with \`chmod 600 ${file}\`, or replace it with ${rotate}`;
    case 'too-big':
      return `${file} holds ${problem.size} bytes, more than a token file can (${problem.maxBytes}): replace it with ${rotate}`;
  }
}

/** Replaces the stored token of `kind` with a new one (whatever held the old one stops working) and returns it. */
export function rotateToken(dataDir: string, kind: TokenFileKind): string {
  return writeNewToken(dataDir, kind);
}

/**
 * Writes a new token to a private file beside the token file and renames it over (a link there is
 * replaced, never followed): a reader sees the old token or the new one, never half of one, and
 * when anything fails the new file is removed, so no live token is left behind.
 */
function writeNewToken(dataDir: string, kind: TokenFileKind): string {
  const file = tokenFileOf(dataDir, kind);
  const token = randomBytes(24).toString('base64url');
  try {
    writeOwnerOnlyFile(file, `${token}\n`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EISDIR' || code === 'ENOTEMPTY' || code === 'EEXIST')
      throw new TokenFileError(
        `${file} is a directory, not a token file: remove it (it holds no token), then run ${kind.rotateCommand} again`,
        { cause: error },
      );
    throw new TokenFileError(`cannot write a new ${kind.label} to ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return token;
}
