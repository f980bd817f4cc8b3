import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../electron/main/handlers';
import { Router } from '../../electron/main/router';
import { createServices } from '../../electron/main/services';
import type { Cipher } from '../../electron/main/services/secrets';
import { tempDir } from '../helpers/app';

/** safeStorage on Linux without a keyring: it "encrypts" with a fixed key, and says so through its backend. */
const basicText: Cipher = {
  available: () => true,
  encrypt: (s) => Buffer.from(s, 'utf8').map((b) => b ^ 0x21),
  decrypt: (d) => Buffer.from(d.map((b) => b ^ 0x21)).toString('utf8'),
  backend: () => 'basic_text',
};

const token = 'hf_basicTextToken00001111';

function desktop(dataDir: string, cipher: Cipher) {
  const services = createServices({ dataDir, mode: 'desktop', version: 't', env: {}, cipher });
  return { services, router: new Router(createHandlers(services), services.log) };
}

describe('secrets at rest without a keyring (safeStorage basic_text)', () => {
  it('says so, keeps secrets for the session only, and writes them to disk only after the user opts in', async () => {
    const dir = tempDir();
    const file = join(dir.path, 'secrets.json');
    const first = desktop(dir.path, basicText);
    let view = (await first.router.call('secrets.set', { name: 'hfToken', value: token })) as {
      secretStorage: unknown;
      secrets: { name: string; source: string; persistent: boolean }[];
    };
    expect(view.secretStorage).toEqual({ kind: 'basic_text', keepWithoutKeyring: false });
    expect(view.secrets.find((s) => s.name === 'hfToken')).toMatchObject({ source: 'session', persistent: false });
    expect(() => readFileSync(file, 'utf8')).toThrow();
    expect(desktop(dir.path, basicText).services.secrets.get('hfToken')).toBeUndefined();

    view = (await first.router.call('secrets.keepWithoutKeyring', { keep: true })) as typeof view;
    expect(view.secretStorage).toEqual({ kind: 'basic_text', keepWithoutKeyring: true });
    expect(view.secrets.find((s) => s.name === 'hfToken')).toMatchObject({ source: 'stored', persistent: true });
    expect(readFileSync(file, 'utf8')).not.toContain(token);
    const second = desktop(dir.path, basicText);
    expect(second.services.secrets.get('hfToken')).toBe(token);

    // Opting out removes them from disk and keeps them for this session.
    await second.router.call('secrets.keepWithoutKeyring', { keep: false });
    expect(second.services.secrets.get('hfToken')).toBe(token);
    expect(readFileSync(file, 'utf8')).not.toContain('hfToken');
    expect(desktop(dir.path, basicText).services.secrets.get('hfToken')).toBeUndefined();
    dir.remove();
  });

  it('with a real keyring nothing changes: stored encrypted, and the opt-in does nothing', async () => {
    const dir = tempDir();
    const keyring: Cipher = { ...basicText, backend: () => 'gnome_libsecret' };
    const app = desktop(dir.path, keyring);
    const view = (await app.router.call('secrets.set', { name: 'falKey', value: 'fal-id:fal-secret-123456' })) as {
      secretStorage: unknown;
    };
    expect(view.secretStorage).toEqual({ kind: 'keychain', keepWithoutKeyring: false });
    expect(desktop(dir.path, keyring).services.secrets.get('falKey')).toBe('fal-id:fal-secret-123456');
    dir.remove();
  });
});
