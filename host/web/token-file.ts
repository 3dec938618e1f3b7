import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The web app's token file in the data folder: readable by its owner only. */
export function webTokenFileOf(dataDir: string): string {
  return path.join(dataDir, 'web-token');
}

/** A token a person can guess or brute-force is no protection; generated ones are 32 characters. */
export const MIN_TOKEN_LENGTH = 16;
/** A token worth keeping: URL-safe (it travels in `#token=`), at least MIN_TOKEN_LENGTH characters (not guessable). */
const TOKEN_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${MIN_TOKEN_LENGTH},512}$`);

/** The stored token is missing its shape: named with its file and what to do. */
export class WebTokenError extends Error {
  override readonly name = 'WebTokenError';
}

/**
 * The web token kept in the data folder, made (32 random URL-safe characters, file mode 0600) the
 * first time, so the address `serve` prints, a bookmark and an open tab stay valid across restarts.
 * A file that does not hold a usable token is reported, never overwritten.
 */
export function readOrCreateWebToken(dataDir: string): string {
  return readWebToken(dataDir) ?? writeNewToken(dataDir);
}

/** The stored token, or undefined when none was made yet. */
export function readWebToken(dataDir: string): string | undefined {
  const file = webTokenFileOf(dataDir);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new WebTokenError(`cannot read the web token ${file}: ${(error as Error).message}`);
  }
  const token = text.trim();
  if (!TOKEN_PATTERN.test(token))
    throw new WebTokenError(
      `${file} does not hold a usable token (16–512 letters, digits, - or _): replace it with \`home-agent token rotate\``,
    );
  return token;
}

/** Replaces the stored token with a new one (old addresses and open tabs stop working) and returns it. */
export function rotateWebToken(dataDir: string): string {
  return writeNewToken(dataDir);
}

function writeNewToken(dataDir: string): string {
  const file = webTokenFileOf(dataDir);
  const token = randomBytes(24).toString('base64url');
  mkdirSync(dataDir, { recursive: true });
  // Written beside and renamed over: a reader sees the old token or the new one, never half of one.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, `${token}\n`, { mode: 0o600 });
  renameSync(partial, file);
  return token;
}
