import { safeStorage } from 'electron';
import type { Cipher } from '../services/secrets';

/** Secrets encrypted with the OS keychain (Keychain, DPAPI, libsecret) through Electron. */
export const safeStorageCipher: Cipher = {
  available: () => safeStorage.isEncryptionAvailable(),
  encrypt: (plain) => safeStorage.encryptString(plain),
  decrypt: (data) => safeStorage.decryptString(Buffer.from(data)),
};
