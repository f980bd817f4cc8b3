import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsFile } from '../../electron/main/services/data-dir';
import { landingIsFirstScreen, markFirstScreen } from '../../electron/main/services/first-screen';
import { startWebServer, type WebServer } from '../../electron/main/web/server';
import { tempDir } from '../helpers/app';

const page =
  '<!doctype html>\n<html lang="en">\n  <head></head>\n  <body><div id="root" data-landing>landing</div></body>\n</html>';
const store = (file: string, values: unknown) => writeFileSync(file, JSON.stringify({ version: 1, values }));

// Main marks index.html when its prerendered catalogue landing is the user's first screen: Hub access chosen, and off.
describe('the first screen mark on index.html', () => {
  const dir = tempDir();
  const file = settingsFile(dir.path);
  let server: WebServer;
  beforeAll(async () => {
    const staticDir = join(dir.path, 'static');
    mkdirSync(staticDir, { recursive: true });
    writeFileSync(join(staticDir, 'index.html'), page);
    writeFileSync(join(staticDir, 'app.js'), '');
    server = await startWebServer({
      router: { call: async () => ({}), stream: () => ({ done: Promise.resolve(), cancel() {} }) } as never,
      log: { debug() {}, info() {}, warn() {}, error() {} },
      staticDir,
      landingFirst: () => landingIsFirstScreen(file),
    });
  });
  afterAll(async () => {
    await server.close();
    dir.remove();
  });

  it('follows the settings file: off → shown; on, not chosen, missing or unreadable → hidden', () => {
    expect(landingIsFirstScreen(file)).toBe(false); // no file: the first-run choice comes first
    store(file, { hubAccess: 'offline' });
    expect(landingIsFirstScreen(file)).toBe(true);
    store(file, { hubAccess: 'online' });
    expect(landingIsFirstScreen(file)).toBe(false);
    store(file, { hubAccess: 'ask' });
    expect(landingIsFirstScreen(file)).toBe(false);
    store(file, { hubSearch: false }); // version 1's "off"
    expect(landingIsFirstScreen(file)).toBe(true);
    writeFileSync(file, '{"values": {"hubAccess": "offl');
    expect(landingIsFirstScreen(file)).toBe(false);
  });

  it('marks only the html element, and only when shown', () => {
    expect(markFirstScreen(page, false)).toBe(page);
    expect(markFirstScreen(page, true)).toBe(page.replace('<html lang="en">', '<html lang="en" data-first-screen>'));
  });

  it('the web server marks index.html per request, as the settings are at that moment', async () => {
    const get = async (path: string) => {
      const res = await fetch(`${server.url.split('#')[0].replace(/\/$/, '')}${path}`);
      return {
        type: res.headers.get('content-type'),
        length: res.headers.get('content-length'),
        body: await res.text(),
      };
    };
    store(file, { hubAccess: 'offline' });
    const shown = await get('/');
    expect(shown.body).toContain('<html lang="en" data-first-screen>');
    expect(Number(shown.length)).toBe(Buffer.byteLength(shown.body));
    expect(shown.type).toContain('text/html');
    store(file, { hubAccess: 'online' });
    expect((await get('/catalogue')).body).toBe(page); // a path without an extension is index.html too
  });
});
