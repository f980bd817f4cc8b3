import { existsSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settingsFile } from '../../electron/main/services/data-dir';
import { landingIsFirstScreen } from '../../electron/main/services/first-screen';
import { createLogger } from '../../electron/main/services/log';
import { SecretStoreImpl } from '../../electron/main/services/secrets';
import { SettingsService } from '../../electron/main/services/settings';
import { tempDir } from '../helpers/app';

// One reader of settings.json: the first-screen check sees the settings the app will run with, file for file.
describe('the settings file, read once for the service and the first-screen check', () => {
  const files: [string, string][] = [
    ['off', JSON.stringify({ version: 1, values: { hubAccess: 'offline' } })],
    ['on', JSON.stringify({ version: 1, values: { hubAccess: 'online' } })],
    ["version 1's off", JSON.stringify({ version: 1, values: { hubSearch: false } })],
    ["version 1's on", JSON.stringify({ version: 1, values: { hubSearch: true } })],
    ['no values', JSON.stringify({ version: 1 })],
    ['cut short', '{"values": {"hubAccess": "offl'],
    // A value the settings refuse: the service sets the file aside and starts from defaults (the first-run choice).
    ['off, beside a refused theme', JSON.stringify({ version: 1, values: { hubAccess: 'offline', theme: 'neon' } })],
    ['off, beside a refused hardware', JSON.stringify({ values: { hubAccess: 'offline', hardwareOverride: 'x' } })],
  ];

  it.each(files)('%s: the landing is the first screen exactly where the service runs offline', (_name, text) => {
    const dir = tempDir();
    try {
      const file = settingsFile(dir.path);
      writeFileSync(file, text);
      const landing = landingIsFirstScreen(file);
      // The check only reads: a file the service will set aside is still there until the service loads it.
      expect(existsSync(file)).toBe(true);
      const service = new SettingsService(file, {}, new SecretStoreImpl({}), createLogger({}));
      expect(landing).toBe(service.get().hubAccess === 'offline');
    } finally {
      dir.remove();
    }
  });
});
