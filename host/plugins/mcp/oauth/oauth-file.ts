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
import { z } from 'zod';
import { createDataDir } from '../../../config/data-dir.ts';
import { fileKind, linkTarget, otherOwner } from '../../../../devices/files/file-kind.ts';

/**
 * Where no keychain exists (`serve`, the CLI), a server's OAuth sign-in lives in an owner-only file of
 * the data folder, `mcp-oauth-NAME.json`, checked as the token files are: a regular file (never a
 * link, a FIFO or a device), this user's, readable by nobody else, and small. Never in mcp.json.
 */

/** The most an OAuth file is read: tokens, a registration and room to spare. */
const MAX_OAUTH_FILE_BYTES = 64 * 1024;

const stored = z.object({
  /** The client as registered (dynamic registration or a client ID metadata document), with its issuer. */
  clientInformation: z.record(z.string(), z.unknown()).optional(),
  /** The tokens the authorization server issued (access, refresh), with its issuer. */
  tokens: z.record(z.string(), z.unknown()).optional(),
});

/** What a server's OAuth file holds (the SDK's shapes, checked by the SDK where it uses them). */
export type StoredOAuth = z.output<typeof stored>;

/** The OAuth file cannot be used: named with what to do. */
export class OAuthFileError extends Error {
  override readonly name = 'OAuthFileError';
}

/** The OAuth file of a server (`NAME` of mcp.json) in the data folder. */
export function oauthFileOf(dataDir: string, server: string): string {
  return path.join(dataDir, `mcp-oauth-${server}.json`);
}

/** What `mcp-oauth-NAME.json` holds; nothing when the server was never signed in to. */
export function readOAuthFile(file: string, signIn: string): StoredOAuth {
  let descriptor: number;
  try {
    // Neither follows a link nor waits for a FIFO's writer.
    descriptor = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return {};
    if (code === 'ELOOP')
      throw new OAuthFileError(
        `${file} is a symbolic link (to ${linkTarget(file)}): sign-in tokens are read only from a regular file of the data folder. Remove it and sign in again with ${signIn}`,
      );
    throw new OAuthFileError(`cannot read ${file}: ${(error as Error).message}`);
  }
  let text: string;
  try {
    checkOAuthFile(file, fstatSync(descriptor), signIn);
    const buffer = Buffer.alloc(MAX_OAUTH_FILE_BYTES + 1);
    const read = readSync(descriptor, buffer, 0, buffer.length, 0);
    if (read > MAX_OAUTH_FILE_BYTES) throw tooBig(file, read, signIn);
    text = buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(descriptor);
  }
  let parsed: z.ZodSafeParseResult<StoredOAuth>;
  try {
    parsed = stored.safeParse(JSON.parse(text));
  } catch {
    parsed = { success: false } as z.ZodSafeParseResult<StoredOAuth>;
  }
  if (!parsed.success)
    throw new OAuthFileError(
      `${file} does not hold a sign-in (not its JSON): remove it and sign in again with ${signIn}`,
    );
  return parsed.data;
}

function checkOAuthFile(file: string, stats: Stats, signIn: string): void {
  if (!stats.isFile())
    throw new OAuthFileError(
      `${file} is ${fileKind(stats)}, not a regular file: remove it, then sign in with ${signIn}`,
    );
  // Windows has no owner-only mode bits to check; its ACLs keep a profile's folders private.
  if (process.platform !== 'win32') {
    const other = otherOwner(stats);
    if (other !== undefined)
      throw new OAuthFileError(
        `${file} belongs to another user (uid ${other.owner}), not to you (uid ${other.you}): someone else chose this sign-in. Remove it and sign in again with ${signIn}`,
      );
    if ((stats.mode & 0o077) !== 0) {
      const mode = (stats.mode & 0o777).toString(8).padStart(4, '0');
      throw new OAuthFileError(
        `${file} can be read or written by other users (mode ${mode}), and its tokens let whoever holds them use the server as you: make it private with \`chmod 600 ${file}\`, or remove it and sign in again with ${signIn}`,
      );
    }
  }
  if (stats.size > MAX_OAUTH_FILE_BYTES) throw tooBig(file, stats.size, signIn);
}

function tooBig(file: string, size: number, signIn: string): OAuthFileError {
  return new OAuthFileError(
    `${file} holds ${size} bytes, more than a sign-in file can (${MAX_OAUTH_FILE_BYTES}): remove it and sign in again with ${signIn}`,
  );
}

/**
 * Writes `value` to a private file beside `file` and renames it over (a link there is replaced, never
 * followed): a reader sees the old sign-in or the new one, never half of one.
 */
export function writeOAuthFile(file: string, value: StoredOAuth): void {
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
      writeSync(descriptor, `${JSON.stringify(value)}\n`);
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

/** Signs out: the file goes (a link there is removed, never followed). */
export function removeOAuthFile(file: string): boolean {
  try {
    rmSync(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
