import { readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { z } from 'zod';
import type { SecretStore, StringCipher } from './secret-store.ts';

const fileSchema = z.object({ version: z.literal(1), secrets: z.record(z.string(), z.string()) });

/** The keychain's file in the data folder (the desktop app's). */
export const SECRETS_FILE_NAME = 'secrets.json';

/** A secret that cannot be stored safely here: the message says what to do instead. */
export class SecretStoreError extends Error {
  override readonly name = 'SecretStoreError';
}

/**
 * Secrets encrypted by the OS keychain, kept as base64 ciphertext in one file (mode 0600).
 * Nothing is ever written in plain text: without a working keychain, `set` refuses.
 */
export class EncryptedFileSecretStore implements SecretStore {
  constructor(private readonly options: { file: string; cipher: StringCipher }) {}

  isAvailable(): boolean {
    return this.options.cipher.isAvailable();
  }

  get(name: string): string | undefined {
    const sealed = this.read()[name];
    if (sealed === undefined || !this.options.cipher.isAvailable()) return undefined;
    return this.options.cipher.decrypt(Buffer.from(sealed, 'base64'));
  }

  has(name: string): boolean {
    return this.read()[name] !== undefined;
  }

  set(name: string, value: string): void {
    if (!this.options.cipher.isAvailable()) {
      throw new SecretStoreError(
        `the OS keychain is not available here, so the ${name.startsWith('api-key:') ? 'key' : 'secret'} cannot be stored safely: put it in an environment variable and name that variable in Settings (${name.startsWith('api-key:') ? '--api-key-env' : 'its variable setting'})`,
      );
    }
    const secrets = this.read();
    secrets[name] = this.options.cipher.encrypt(value).toString('base64');
    this.write(secrets);
  }

  delete(name: string): boolean {
    const secrets = this.read();
    if (secrets[name] === undefined) return false;
    delete secrets[name];
    this.write(secrets);
    return true;
  }

  private read(): Record<string, string> {
    if (!existsSync(this.options.file)) return {};
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(this.options.file, 'utf8'));
    } catch (error) {
      throw new SecretStoreError(
        `${this.options.file} is not readable as the secrets file (${(error as Error).message}); it was left untouched — move it aside to start again`,
      );
    }
    const parsed = fileSchema.safeParse(json);
    if (!parsed.success)
      throw new SecretStoreError(
        `${this.options.file} is not a Home Agent secrets file; it was left untouched — move it aside to start again`,
      );
    return { ...parsed.data.secrets };
  }

  private write(secrets: Record<string, string>): void {
    // Write then rename, so a crash leaves the old file or the new one, never half of one.
    const temporary = `${this.options.file}.tmp`;
    writeFileSync(temporary, JSON.stringify({ version: 1, secrets }), { mode: 0o600 });
    renameSync(temporary, this.options.file);
  }
}
