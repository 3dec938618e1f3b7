/** Where secrets (API keys) are kept when they are not in the environment. Values never leave main. */
export interface SecretStore {
  get(name: string): string | undefined;
  has(name: string): boolean;
  set(name: string, value: string): void;
  delete(name: string): boolean;
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
