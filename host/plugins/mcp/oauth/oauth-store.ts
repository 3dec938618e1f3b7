import { readOAuthFile, removeOAuthFile, writeOAuthFile, type StoredOAuth } from './oauth-file.ts';

/** Where a server's sign-in (its registration and tokens) is kept: the OS keychain, or an owner-only file. */
export interface OAuthStore {
  /** Where, in words a person reads ("the OS keychain", or the file). */
  readonly keptIn: string;
  /** What is kept; nothing when the server was never signed in to. */
  read(): StoredOAuth;
  write(value: StoredOAuth): void;
  /** Signs out: what was kept goes. True when there was something. */
  remove(): boolean;
}

/** The owner-only file `mcp-oauth-NAME.json` of the data folder, where no keychain exists (`serve`, the CLI). */
export function oauthFileStore(file: string, signInCommand: string): OAuthStore {
  return {
    keptIn: `${file} (readable by you only)`,
    read: () => readOAuthFile(file, signInCommand),
    write: (value) => writeOAuthFile(file, value),
    remove: () => removeOAuthFile(file),
  };
}
