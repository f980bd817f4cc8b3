import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServices } from '../../electron/main/services';
import type { Cipher } from '../../electron/main/services/secrets';
import { normalizeOllamaHost } from '../../electron/main/services/settings';
import { startTestApp, tempDir, type TestApp } from '../helpers/app';

/** Stands in for safeStorage: reversible, and the ciphertext never contains the plaintext. */
const fakeCipher: Cipher = {
  available: () => true,
  encrypt: (s) => Buffer.from(s, 'utf8').map((b) => b ^ 0x5a),
  decrypt: (d) => Buffer.from(d.map((b) => b ^ 0x5a)).toString('utf8'),
};

function allFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe('settings', () => {
  let app: TestApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('defaults, then environment, then the user, and persist across restarts', async () => {
    const dir = tempDir();
    app = await startTestApp({
      dataDir: dir.path,
      env: { OLLAMA_HOST: '0.0.0.0', HF_ENDPOINT: 'https://hf-mirror.example/' },
    });
    let view = await app.client.call('settings.get', {});
    expect(view.values.ollamaHost).toBe('http://127.0.0.1:11434');
    expect(view.sources).toMatchObject({ ollamaHost: 'env', hubEndpoint: 'env', theme: 'default' });
    expect(view.values.hubEndpoint).toBe('https://hf-mirror.example');
    expect(view.values.hubAccess).toBe('ask');

    view = await app.client.call('settings.update', {
      theme: 'dark',
      ollamaHost: 'http://gpu-box:11434',
      billTo: 'my-org',
    });
    expect(view.sources.theme).toBe('user');
    await app.close();

    app = await startTestApp({ dataDir: dir.path, env: { OLLAMA_HOST: '0.0.0.0' } });
    view = await app.client.call('settings.get', {});
    expect(view.values).toMatchObject({ theme: 'dark', ollamaHost: 'http://gpu-box:11434', billTo: 'my-org' });

    view = await app.client.call('settings.update', { ollamaHost: null });
    expect(view.values.ollamaHost).toBe('http://127.0.0.1:11434');
    expect(view.sources.ollamaHost).toBe('env');
    dir.remove();
  });

  it('a damaged settings file is moved aside and the app starts on defaults', async () => {
    const dir = tempDir();
    writeFileSync(join(dir.path, 'settings.json'), '{"values": {"theme": ');
    app = await startTestApp({ dataDir: dir.path });
    const view = await app.client.call('settings.get', {});
    expect(view.values.theme).toBe('system');
    expect(readdirSync(dir.path).some((f) => f.startsWith('settings.json.corrupt-'))).toBe(true);
    dir.remove();
  });

  it('an earlier "Search the Hub" switch is kept as the Hub access choice', async () => {
    for (const [hubSearch, hubAccess] of [
      [true, 'online'],
      [false, 'offline'],
    ] as const) {
      const dir = tempDir();
      writeFileSync(
        join(dir.path, 'settings.json'),
        JSON.stringify({ version: 1, values: { hubSearch, theme: 'dark' } }),
      );
      app = await startTestApp({ dataDir: dir.path });
      const view = await app.client.call('settings.get', {});
      expect(view.values).toMatchObject({ hubAccess, theme: 'dark' });
      expect(view.sources.hubAccess).toBe('user');
      await app.close();
      app = undefined;
      dir.remove();
    }
  });

  it('normalises OLLAMA_HOST the way Ollama reads it', () => {
    expect(normalizeOllamaHost('localhost')).toBe('http://localhost:11434');
    expect(normalizeOllamaHost('0.0.0.0:8080')).toBe('http://127.0.0.1:8080');
    expect(normalizeOllamaHost('https://ollama.example.com')).toBe('https://ollama.example.com');
    expect(normalizeOllamaHost('http://10.0.0.5:11434/')).toBe('http://10.0.0.5:11434');
  });
});

describe('secrets never leave main', () => {
  const token = 'hf_SuperSecretTokenValue9876';

  it('web mode: from the environment; the renderer learns set + last 4; a value set in the page is not written to disk', async () => {
    const dir = tempDir();
    const app = await startTestApp({ dataDir: dir.path, env: { HF_TOKEN: token } });
    const view = await app.client.call('settings.get', {});
    expect(view.secrets.find((s) => s.name === 'hfToken')).toEqual({
      name: 'hfToken',
      set: true,
      last4: '9876',
      source: 'env',
      persistent: false,
      envVar: 'HF_TOKEN',
    });
    const falKey = 'fal-key-id:fal-key-secret-0000-abcd';
    const afterSet = await app.client.call('secrets.set', { name: 'falKey', value: falKey });
    expect(afterSet.secrets.find((s) => s.name === 'falKey')).toMatchObject({
      set: true,
      source: 'session',
      last4: 'abcd',
    });
    expect(app.services.secrets.get('falKey')).toBe(falKey);

    // Something logs a message that happens to contain the secret: the log masks it.
    app.services.log.error(`upstream said: bad token ${token}`, { header: `Bearer ${token}`, key: falKey });
    await app.client.call('settings.update', { theme: 'light' });

    for (const payload of [view, afterSet, await app.client.call('settings.get', {})]) {
      expect(JSON.stringify(payload)).not.toContain(token);
      expect(JSON.stringify(payload)).not.toContain(falKey);
    }
    for (const file of allFiles(dir.path)) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toContain(token);
      expect(text, file).not.toContain(falKey);
    }
    expect(readFileSync(join(dir.path, 'logs', 'hubdesk.log'), 'utf8')).toContain('bad token ***');

    const cleared = await app.client.call('secrets.clear', { name: 'hfToken' });
    expect(cleared.secrets.find((s) => s.name === 'hfToken')).toMatchObject({ set: false, source: 'none' });
    await app.close();
    dir.remove();
  });

  it('desktop: stored encrypted (never plain text) and back after a restart', () => {
    const dir = tempDir();
    const first = createServices({ dataDir: dir.path, mode: 'desktop', version: 't', env: {}, cipher: fakeCipher });
    first.secrets.set('hfToken', token);
    const onDisk = readFileSync(join(dir.path, 'secrets.json'), 'utf8');
    expect(onDisk).not.toContain(token);
    const second = createServices({ dataDir: dir.path, mode: 'desktop', version: 't', env: {}, cipher: fakeCipher });
    expect(second.secrets.get('hfToken')).toBe(token);
    expect(second.secrets.status().find((s) => s.name === 'hfToken')).toMatchObject({
      source: 'stored',
      persistent: true,
    });
    second.secrets.clear('hfToken');
    const third = createServices({ dataDir: dir.path, mode: 'desktop', version: 't', env: {}, cipher: fakeCipher });
    expect(third.secrets.get('hfToken')).toBeUndefined();
    dir.remove();
  });

  it('rejects a secret that is obviously not one, with the field named', async () => {
    const app = await startTestApp();
    await expect(app.client.call('secrets.set', { name: 'hfToken', value: 'abc' })).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('value'),
    });
    await app.close();
  });
});
