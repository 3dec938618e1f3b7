import path from 'node:path';
import { z } from 'zod';
import {
  readOwnerOnlyFile,
  removeOwnerOnlyFile,
  writeOwnerOnlyFile,
  type OwnerOnlyProblem,
} from '../../../secrets/owner-only-file.ts';

/**
 * Where no keychain exists (`serve`, the CLI), a server's OAuth sign-in lives in an owner-only file of
 * the data folder, `mcp-oauth-NAME.json`, checked as the token files are (`readOwnerOnlyFile`): a
 * regular file (never a link, a FIFO or a device), this user's, readable by nobody else, and small.
 * Never in mcp.json.
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
  const text = readOwnerOnlyFile(file, {
    maxBytes: MAX_OAUTH_FILE_BYTES,
    refuse: (problem) => new OAuthFileError(oauthFileProblem(file, signIn, problem)),
  });
  if (text === undefined) return {};
  const parsed = parseStoredOAuth(text);
  if (parsed === undefined)
    throw new OAuthFileError(
      `${file} does not hold a sign-in (not its JSON): remove it and sign in again with ${signIn}`,
    );
  return parsed;
}

/** A sign-in as kept (JSON of StoredOAuth), or undefined when the text is not one. */
export function parseStoredOAuth(text: string): StoredOAuth | undefined {
  try {
    const parsed = stored.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** What is wrong with an OAuth file, and how to fix it. */
function oauthFileProblem(file: string, signIn: string, problem: OwnerOnlyProblem): string {
  switch (problem.kind) {
    case 'link':
      return `${file} is a symbolic link (to ${problem.target}): sign-in tokens are read only from a regular file of the data folder. Remove it and sign in again with ${signIn}`;
    case 'unreadable':
      return `cannot read ${file}: ${problem.message}`;
    case 'not-a-file':
      return `${file} is ${problem.is}, not a regular file: remove it, then sign in with ${signIn}`;
    case 'other-owner':
      return `${file} belongs to another user (uid ${problem.owner}), not to you (uid ${problem.you}): someone else chose this sign-in. Remove it and sign in again with ${signIn}`;
    case 'shared':
      return `${file} can be read or written by other users (mode ${problem.mode}), and its tokens let whoever holds them use the server as you: make it private with \`chmod 600 ${file}\`, or remove it and sign in again with ${signIn}`;
    case 'too-big':
      return `${file} holds ${problem.size} bytes, more than a sign-in file can (${problem.maxBytes}): remove it and sign in again with ${signIn}`;
  }
}

/** Writes `value` whole or not at all (`writeOwnerOnlyFile`): a reader sees the old sign-in or the new one, never half of one. */
export function writeOAuthFile(file: string, value: StoredOAuth): void {
  writeOwnerOnlyFile(file, `${JSON.stringify(value)}\n`);
}

/** Signs out: the file goes (a link there is removed, never followed). */
export function removeOAuthFile(file: string): boolean {
  return removeOwnerOnlyFile(file);
}
