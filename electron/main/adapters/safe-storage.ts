import { safeStorage } from 'electron';
import type { Cipher } from '../services/secrets';

/** Secrets encrypted with the OS keychain (Keychain, DPAPI, libsecret) through Electron. */
export const safeStorageCipher: Cipher = {
  available: () => safeStorage.isEncryptionAvailable(),
  encrypt: (plain) => safeStorage.encryptString(plain),
  decrypt: (data) => safeStorage.decryptString(Buffer.from(data)),
  // Only Linux chooses among backends; elsewhere the OS keychain is the only one.
  backend: () => (process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : 'os'),
};
