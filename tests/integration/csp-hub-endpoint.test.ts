import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsFile } from '../../electron/main/services/data-dir';
import { createLogger } from '../../electron/main/services/log';
import { SecretStoreImpl } from '../../electron/main/services/secrets';
import { hubEndpointIn, SettingsService } from '../../electron/main/services/settings';
import { contentSecurityPolicy, imageSources } from '../../electron/main/services/static-files';
import { startWebServer, type WebServer } from '../../electron/main/web/server';
import { cspAllowsImagesFrom } from '../../renderer/src/pages/settings/csp-images';
import { tempDir } from '../helpers/app';

const imgSrc = (policy: string) => policy.split('; ').find((d) => d.startsWith('img-src '));

describe("the page's CSP follows the Hub endpoint (card images behind an HF_ENDPOINT mirror)", () => {
  let server: WebServer;
  let hub = 'http://127.0.0.1:8765/mirror/';
  const dir = tempDir();

  beforeAll(async () => {
    const staticDir = join(dir.path, 'static');
    mkdirSync(join(staticDir, 'assets'), { recursive: true });
    writeFileSync(
      join(staticDir, 'index.html'),
      `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; ${imageSources()}; font-src 'self'">`,
    );
    writeFileSync(join(staticDir, 'assets', 'a.js'), '');
    server = await startWebServer({
      router: { call: async () => ({}), stream: () => ({ cancel() {}, done: Promise.resolve() }) },
      log: createLogger({}),
      staticDir,
      hubEndpoint: () => hub,
    });
  });
  afterAll(async () => {
    await server.close();
    dir.remove();
  });
  const get = (path: string) => fetch(`http://127.0.0.1:${server.port}${path}`);

  it("index.html's header and meta allow the configured endpoint's origin, read per request", async () => {
    const res = await get('/');
    expect(imgSrc(res.headers.get('content-security-policy')!)).toBe(
      "img-src 'self' data: blob: https://huggingface.co https://*.huggingface.co https://*.hf.co http://127.0.0.1:8765",
    );
    expect(await res.text()).toContain(`${imageSources(hub)};`);
    hub = 'https://hf-mirror.example.com';
    expect((await get('/')).headers.get('content-security-policy')).toContain(
      'https://*.hf.co https://hf-mirror.example.com;',
    );
  });

  it('the Hub itself adds nothing; other files keep the default policy', async () => {
    hub = 'https://huggingface.co';
    expect((await get('/')).headers.get('content-security-policy')).toBe(contentSecurityPolicy());
    hub = 'http://127.0.0.1:8765';
    expect((await get('/assets/a.js')).headers.get('content-security-policy')).toBe(contentSecurityPolicy());
  });

  it('an endpoint that is not a plain origin adds nothing to the policy', () => {
    expect(imageSources('http://a;script-src *')).toBe(imageSources());
    expect(imageSources('not a url')).toBe(imageSources());
    expect(imageSources('http://[::1]:9000/x')).toContain(' http://[::1]:9000');
  });

  it('an endpoint saved in Settings is in the next header and meta; the page loaded before knows it must reload', async () => {
    const d = tempDir();
    const file = settingsFile(d.path);
    const settings = new SettingsService(file, {}, new SecretStoreImpl({}), createLogger({}));
    // Wired as web.ts wires it: the settings file, read per request.
    const live = await startWebServer({
      router: { call: async () => ({}), stream: () => ({ cancel() {}, done: Promise.resolve() }) },
      log: createLogger({}),
      staticDir: join(dir.path, 'static'),
      hubEndpoint: () => hubEndpointIn(file, {}),
    });
    const page = async () => {
      const res = await fetch(`http://127.0.0.1:${live.port}/`);
      const meta = /content="([^"]*)"/.exec(await res.text())![1];
      return { header: res.headers.get('content-security-policy')!, meta };
    };
    try {
      const mirror = 'https://new-mirror.example.com/hub';
      const before = await page();
      expect(before.header).not.toContain('new-mirror');
      expect(cspAllowsImagesFrom(before.meta, mirror)).toBe(false);

      settings.update({ hubEndpoint: mirror });
      const after = await page();
      expect(imgSrc(after.header)).toContain(' https://new-mirror.example.com');
      expect(cspAllowsImagesFrom(after.meta, mirror)).toBe(true);
      expect(cspAllowsImagesFrom(after.header, mirror)).toBe(true);
      // The page loaded before still holds the old policy: Settings offers the reload.
      expect(cspAllowsImagesFrom(before.meta, mirror)).toBe(false);
      // The Hub's own hosts never need one.
      expect(cspAllowsImagesFrom(before.meta, 'https://huggingface.co')).toBe(true);
      expect(cspAllowsImagesFrom(before.meta, 'https://cdn-lfs.hf.co/x')).toBe(true);
      expect(cspAllowsImagesFrom(before.meta, 'https://evil-hf.co')).toBe(false);
    } finally {
      await live.close();
      d.remove();
    }
  });

  it('reads the endpoint the settings service would use: the file, else the environment, else the Hub', () => {
    const d = tempDir();
    try {
      const file = settingsFile(d.path);
      const env = { HF_ENDPOINT: 'https://env-mirror.example.com' };
      const service = () => new SettingsService(file, env, new SecretStoreImpl({}), createLogger({})).get().hubEndpoint;
      expect(hubEndpointIn(file, {})).toBe('https://huggingface.co');
      expect(hubEndpointIn(file, env)).toBe(service());
      writeFileSync(file, JSON.stringify({ version: 1, values: { hubEndpoint: 'http://127.0.0.1:9/hub' } }));
      expect(hubEndpointIn(file, env)).toBe(service());
      expect(new URL(hubEndpointIn(file, env)).origin).toBe('http://127.0.0.1:9');
    } finally {
      d.remove();
    }
  });
});
