import path from 'node:path';
import { EncryptedFileSecretStore, SECRETS_FILE_NAME } from '../../../secrets/encrypted-file-secret-store.ts';
import type { SecretStore, StringCipher } from '../../../secrets/secret-store.ts';
import { OAuthFileError, parseStoredOAuth, type StoredOAuth } from './oauth-file.ts';
import { oauthFileStore, type OAuthStore } from './oauth-store.ts';

/** The keychain's name of a server's sign-in (`NAME` of mcp.json). */
export function oauthSecretName(server: string): string {
  return `mcp-oauth:${server}`;
}

/**
 * A server's sign-in in the OS keychain, as API keys are (the host's SecretStore: ciphertext only),
 * never in plain text. A plain `mcp-oauth-NAME.json` found beside it (a sign-in made where there was no
 * keychain: the terminal with no window open, or an earlier version) is moved in at the next read, and
 * the file goes; that file is read with the owner-only file's checks, so one someone else could write
 * is refused, never taken in.
 */
export function keychainOAuthStore(options: {
  secrets: SecretStore;
  server: string;
  /** The plain file a sign-in without a keychain leaves (`oauthFileOf`). */
  file: string;
  signInCommand: string;
}): OAuthStore {
  const name = oauthSecretName(options.server);
  const plain = oauthFileStore(options.file, options.signInCommand);
  const moveIn = (): void => {
    const found = plain.read();
    if (found.tokens === undefined && found.clientInformation === undefined) return;
    options.secrets.set(name, JSON.stringify(found));
    plain.remove();
  };
  return {
    keptIn: 'the OS keychain (encrypted, never in plain text)',
    read: () => {
      moveIn();
      let text: string | undefined;
      try {
        text = options.secrets.get(name);
      } catch (error) {
        throw new OAuthFileError(
          `the OS keychain could not read the sign-in of ${options.server} (${(error as Error).message}): sign in again with ${options.signInCommand}`,
        );
      }
      if (text === undefined) return {};
      const parsed = parseStoredOAuth(text);
      if (parsed === undefined)
        throw new OAuthFileError(
          `the OS keychain holds no usable sign-in of ${options.server}: sign in again with ${options.signInCommand}`,
        );
      return parsed;
    },
    write: (value: StoredOAuth) => options.secrets.set(name, JSON.stringify(value)),
    remove: () => {
      const removedPlain = plain.remove();
      return options.secrets.delete(name) || removedPlain;
    },
  };
}

/** What a process without the keychain (the CLI) has of it: it can decrypt nothing, and remove an entry. */
const NO_KEYCHAIN: StringCipher = {
  isAvailable: () => false,
  encrypt: () => {
    throw new Error('no keychain here');
  },
  decrypt: () => {
    throw new Error('no keychain here');
  },
};

/**
 * Signs out where no keychain runs (`plugins logout` with no app open): the sign-in the desktop app
 * keeps in its keychain file goes too, which needs no decryption. True when there was one.
 */
export function forgetKeychainSignIn(dataDir: string, server: string): boolean {
  const secrets = new EncryptedFileSecretStore({ file: path.join(dataDir, SECRETS_FILE_NAME), cipher: NO_KEYCHAIN });
  return secrets.delete(oauthSecretName(server));
}
