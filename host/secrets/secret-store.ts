/** Where secrets (API keys) are kept when they are not in the environment. Values never leave main. */
export interface SecretStore {
  get(name: string): string | undefined;
  has(name: string): boolean;
  set(name: string, value: string): void;
  delete(name: string): boolean;
  /** Whether it can keep a secret now (the keychain encrypts); `set` refuses otherwise. */
  isAvailable(): boolean;
}

/** Encrypts with the OS keychain (Electron `safeStorage`): what `EncryptedFileSecretStore` needs. */
export interface StringCipher {
  isAvailable(): boolean;
  encrypt(text: string): Buffer;
  decrypt(data: Buffer): string;
}

/** The secret name of a provider's API key. */
export function apiKeySecretName(provider: string): string {
  return `api-key:${provider}`;
}

/** The secret name of a way in's secret (`way-in:NAME`, NAME as the way in declares it). */
export function wayInSecretName(name: string): string {
  return `way-in:${name}`;
}

/**
 * Reads kept secrets by their short name for code that must not fail on the keychain: a file that
 * cannot be read or decrypted reads as no secret (the caller then says what it lacks).
 */
export function keptSecret(store: SecretStore, nameOf: (name: string) => string): (name: string) => string | undefined {
  return (name) => {
    try {
      return store.get(nameOf(name));
    } catch {
      // Unreadable keychain file or a failed decryption: as if none were kept; the message about it stays the store's.
      return undefined;
    }
  };
}
