// Electron's safeStorage cannot run here; a stand-in cipher plays the OS keychain (a reversible
// transform whose output never contains the plain text), so the file logic is tested for real.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EncryptedFileSecretStore, SecretStoreError } from '../../../host/secrets/encrypted-file-secret-store.ts';
import type { StringCipher } from '../../../host/secrets/secret-store.ts';
import { createHost } from '../../../host/app/create-host.ts';
import { ScriptedModel } from '../../../core/models/scripted/scripted-model.ts';

const KEY = 'sk-test-0123456789-SECRET';
const cipher = (available = true): StringCipher => ({
  isAvailable: () => available,
  encrypt: (text) => Buffer.from([...Buffer.from(text, 'utf8')].map((byte) => byte ^ 0x5a)),
  decrypt: (data) => Buffer.from([...data].map((byte) => byte ^ 0x5a)).toString('utf8'),
});

const dirs: string[] = [];
function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-secrets-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('EncryptedFileSecretStore', () => {
  it('keeps a key only as ciphertext in a file readable by its owner alone, and reads it back', () => {
    const file = path.join(folder(), 'secrets.json');
    const store = new EncryptedFileSecretStore({ file, cipher: cipher() });
    store.set('api-key:openai', KEY);
    expect(readFileSync(file, 'utf8')).not.toContain(KEY);
    expect(readFileSync(file, 'utf8')).not.toContain('SECRET');
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(new EncryptedFileSecretStore({ file, cipher: cipher() }).get('api-key:openai')).toBe(KEY);
    expect(store.delete('api-key:openai')).toBe(true);
    expect(store.has('api-key:openai')).toBe(false);
  });

  it('refuses to store anything when the keychain is unavailable, instead of writing plain text', () => {
    const file = path.join(folder(), 'secrets.json');
    const store = new EncryptedFileSecretStore({ file, cipher: cipher(false) });
    expect(() => store.set('api-key:openai', KEY)).toThrow(SecretStoreError);
    expect(() => readFileSync(file)).toThrow();
  });

  it('reports a file that is not ours and leaves it untouched', () => {
    const file = path.join(folder(), 'secrets.json');
    writeFileSync(file, 'not json at all');
    const store = new EncryptedFileSecretStore({ file, cipher: cipher() });
    expect(() => store.set('api-key:openai', KEY)).toThrow(/left untouched/);
    expect(readFileSync(file, 'utf8')).toBe('not json at all');
  });
});

describe('API keys through the host', () => {
  it('tells front ends which providers have a key, never the key, and refuses keys where no keychain exists', async () => {
    const dataDir = folder();
    const secrets = new EncryptedFileSecretStore({ file: path.join(dataDir, 'secrets.json'), cipher: cipher() });
    const host = await createHost({
      dataDir,
      transport: 'electron',
      model: new ScriptedModel({ replies: [] }),
      secrets,
      log: () => {},
      version: 'test',
    });
    try {
      expect(await host.handlers['secrets/set-api-key']({ provider: 'anthropic', apiKey: KEY })).toEqual({
        stored: true,
        appliesAt: 'next start',
      });
      const status = await host.handlers['secrets/status']({});
      expect(status).toEqual({
        available: true,
        apiKeys: { openai: false, anthropic: true, gemini: false, ollama: false },
        wayInSecrets: { mqttPassword: false },
      });
      expect(JSON.stringify(status)).not.toContain(KEY);
    } finally {
      await host.dispose();
    }
    const web = await createHost({
      dataDir: folder(),
      transport: 'web',
      model: new ScriptedModel({ replies: [] }),
      log: () => {},
      version: 'test',
    });
    try {
      await expect(async () =>
        web.handlers['secrets/set-api-key']({ provider: 'openai', apiKey: KEY }),
      ).rejects.toThrow(/environment variable/);
    } finally {
      await web.dispose();
    }
  });
});
