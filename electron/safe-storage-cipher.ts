import { safeStorage } from 'electron';
import type { StringCipher } from '../host/secrets/secret-store.ts';

/** The OS keychain through Electron's `safeStorage` (Keychain, DPAPI, libsecret/kwallet). */
export const safeStorageCipher: StringCipher = {
  // On Linux without a keyring, safeStorage falls back to a hard-coded key: treat that as unavailable.
  isAvailable: () =>
    safeStorage.isEncryptionAvailable() &&
    (process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text'),
  encrypt: (text) => safeStorage.encryptString(text),
  decrypt: (data) => safeStorage.decryptString(data),
};
