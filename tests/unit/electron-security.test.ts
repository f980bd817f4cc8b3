import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Reply } from '@shared/transport';
import { IPC } from '@shared/transport';
import { isTrustedSender, registerIpc, type IpcEventLike } from '../../electron/main/adapters/ipc';
import { Router, type Handlers } from '../../electron/main/router';
import { createLogger } from '../../electron/main/services/log';
import { APP_ORIGIN, lookupAppUrl } from '../../electron/main/services/static-files';
import { tempDir } from '../helpers/app';

const sender = (id: number) => ({ id, send: () => {}, isDestroyed: () => false, once: () => {} });
const event = (id: number, url: string | null, parent: unknown = null): IpcEventLike => ({
  sender: sender(id),
  senderFrame: url === null ? null : { url, parent },
});

describe('IPC senders', () => {
  it.each([
    ['our window, main frame, app origin', event(1, `${APP_ORIGIN}/index.html#/chat`), true],
    ['another window', event(2, `${APP_ORIGIN}/index.html`), false],
    ['a subframe', event(1, `${APP_ORIGIN}/index.html`, { url: APP_ORIGIN }), false],
    ['navigated to a web page', event(1, 'https://evil.example/'), false],
    ['a file:// page', event(1, 'file:///tmp/x.html'), false],
    ['another app:// host', event(1, 'app://evil/index.html'), false],
    ['a destroyed frame', event(1, null), false],
    ['no frame given', { sender: sender(1) }, false],
  ] as const)('%s → %s', (_name, e, trusted) => {
    expect(isTrustedSender(e as IpcEventLike, 1, APP_ORIGIN)).toBe(trusted);
  });

  it('no window yet → nobody is trusted', () => {
    expect(isTrustedSender(event(1, `${APP_ORIGIN}/`), undefined, APP_ORIGIN)).toBe(false);
  });

  it('registerIpc refuses untrusted senders and over-deep input before the router', async () => {
    const handlers = new Map<string, (e: IpcEventLike, ...a: unknown[]) => unknown>();
    let reached = 0;
    const router = new Router(
      {
        'settings.get': () => {
          reached++;
          return {};
        },
      } as unknown as Handlers,
      createLogger(),
    );
    registerIpc({ handle: (c, fn) => handlers.set(c, fn) }, router, (e) => isTrustedSender(e, 1, APP_ORIGIN));
    const call = handlers.get(IPC.call)!;
    const frame = event(1, `${APP_ORIGIN}/index.html`, { parent: 'x' });
    expect(((await call(frame, 'settings.get', {})) as Reply).ok).toBe(false);
    let deep: unknown = {};
    for (let i = 0; i < 5000; i++) deep = { a: deep };
    const r = (await call(event(1, `${APP_ORIGIN}/`), 'settings.get', deep)) as Reply;
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const s = handlers.get(IPC.streamStart)!(event(1, `${APP_ORIGIN}/`), 's1', 'chat.send', deep) as Reply;
    expect(s).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(reached).toBe(0);
    expect(((await call(event(1, `${APP_ORIGIN}/`), 'settings.get', {})) as Reply).ok).toBe(true);
    expect(reached).toBe(1);
  });
});

describe('app:// protocol', () => {
  const dir = tempDir();
  const root = join(dir.path, 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html>');
  writeFileSync(join(root, 'assets', 'a.js'), '');
  writeFileSync(join(dir.path, 'secret.txt'), 'outside');

  it.each([
    ['GET', `${APP_ORIGIN}/index.html`, 200, 'index.html'],
    ['GET', `${APP_ORIGIN}/`, 200, 'index.html'],
    ['GET', `${APP_ORIGIN}/chat/new`, 200, 'index.html'],
    ['GET', `${APP_ORIGIN}/assets/a.js`, 200, 'a.js'],
    ['HEAD', `${APP_ORIGIN}/assets/a.js`, 200, 'a.js'],
    ['GET', `${APP_ORIGIN}/assets/missing.js`, 404, ''],
    ['GET', `${APP_ORIGIN}/..%2fsecret.txt`, 404, ''],
    ['GET', `${APP_ORIGIN}/assets/..%2f..%2fsecret.txt`, 404, ''],
    ['GET', `${APP_ORIGIN}/%E0%A4%A`, 400, ''],
    ['GET', `${APP_ORIGIN}/a%00.js`, 400, ''],
    ['GET', 'app://other/index.html', 404, ''],
    ['POST', `${APP_ORIGIN}/index.html`, 404, ''],
    ['GET', 'not a url', 400, ''],
  ] as const)('%s %s → %i', (method, url, status, file) => {
    const r = lookupAppUrl(root, method, url);
    expect(r.status).toBe(status);
    if (r.status === 200) expect(r.file.endsWith(file)).toBe(true);
  });
});

describe('packaging', () => {
  it('electron-builder flips the security fuses', () => {
    // The block's `key: true|false` lines, read without a YAML dependency.
    const text = readFileSync('electron-builder.yml', 'utf8');
    const block = /^electronFuses:\n((?: {2}\w+: (?:true|false)\n?)+)/m.exec(text)![1];
    const fuses = Object.fromEntries([...block.matchAll(/(\w+): (true|false)/g)].map((m) => [m[1], m[2] === 'true']));
    expect(fuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
    });
  });

  it('the window loads app://, and refuses navigation and redirects alike', () => {
    const src = readFileSync('electron/main/adapters/window.ts', 'utf8');
    expect(src).toContain('loadURL(`${APP_ORIGIN}/index.html`)');
    expect(src).not.toMatch(/loadFile\(/);
    expect(src).toMatch(/'will-redirect', \(e\) => e\.preventDefault\(\)/);
    expect(readFileSync('electron/main/index.ts', 'utf8').indexOf('registerAppScheme()')).toBeLessThan(
      readFileSync('electron/main/index.ts', 'utf8').indexOf('whenReady'),
    );
  });
});
