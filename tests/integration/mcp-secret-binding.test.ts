import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Cipher } from '../../electron/main/services/secrets';
import {
  mcpConfigText,
  mcpServerScript,
  startMcpHttpFixture,
  stdioEntry,
  type McpHttpFixture,
} from '../fixtures/mcp-fixture';
import { startTestApp, tempDir, type TestApp } from '../helpers/app';

const KEY = 'mcp-key-for-a-0123456789';
const NEW_KEY = 'mcp-key-for-b-9876543210';
const TOKEN = 'sk-env-token-abcdefghijkl';
/** How mcp.json and the page show a long secret. */
const mask = (value: string) => `•••• ${value.slice(-4)}`;

const fakeCipher: Cipher = {
  available: () => true,
  encrypt: (s) => Buffer.from(Buffer.from(s).map((b) => b ^ 0x5a)),
  decrypt: (d) => Buffer.from(Buffer.from(d).map((b) => b ^ 0x5a)).toString(),
};

describe('MCP secrets are bound to the URL origin or the command they were entered for', () => {
  const apps: TestApp[] = [];
  /** a requires the key (a ready server proves it was sent); b takes anything and records what it was sent. */
  let a: McpHttpFixture;
  let b: McpHttpFixture;
  const start = async (opts: Parameters<typeof startTestApp>[0] = {}) => {
    const app = await startTestApp({ mcp: { connectTimeoutMs: 5000, maxRestarts: 0 }, ...opts });
    apps.push(app);
    return app;
  };
  const origin = (f: McpHttpFixture) => new URL(f.url).origin;
  const sentTo = (f: McpHttpFixture) => JSON.stringify(f.requests);
  const headerMoved = (from: McpHttpFixture, to: McpHttpFixture) =>
    `The X-Api-Key header of "remote" was entered for ${origin(from)}; the URL now goes to ${origin(to)}, so the stored value is not sent there: type it again.`;
  const movedMessage = () => headerMoved(a, b);
  const remote = (url: string, key: string) => mcpConfigText({ remote: { url, headers: { 'X-Api-Key': key } } });

  beforeAll(async () => {
    [a, b] = await Promise.all([startMcpHttpFixture(['--require-header', `X-Api-Key=${KEY}`]), startMcpHttpFixture()]);
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    b.requests.length = 0;
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('a header saved masked with the URL moved to another origin is not sent there', async () => {
    const { client } = await start();
    const first = await client.call('mcp.config.save', { text: remote(a.url, KEY) });
    expect(first.errors).toEqual([]);
    const masked = first.text;
    expect(masked).toContain(mask(KEY));

    // The repro: the page's masked text saved again with the URL changed, then the server started.
    const moved = await client.call('mcp.config.save', { text: masked.replace(a.url, b.url) });
    await client.call('mcp.start', { name: 'remote' });
    expect(sentTo(b)).not.toContain(KEY);
    expect(moved).toMatchObject({ saved: false, servers: [] });
    expect(moved.errors).toEqual([
      { line: 6, column: 22, path: ['mcpServers', 'remote', 'headers', 'X-Api-Key'], message: movedMessage() },
    ]);
    // Nothing was written: the server still runs against the origin its key was entered for.
    expect((await client.call('mcp.config.get', {})).text).toBe(masked);
    expect((await client.call('mcp.start', { name: 'remote' })).state).toBe('ready');

    // Another path on the same origin keeps the value (a requires it to answer at all).
    const samePlace = await client.call('mcp.config.save', { text: masked.replace('/mcp"', '/mcp?v=2"') });
    expect(samePlace.errors).toEqual([]);
    expect(await client.call('mcp.start', { name: 'remote' })).toMatchObject({ state: 'ready' });

    // Typed again for the new origin: sent there, and bound to it from then on.
    const retyped = await client.call('mcp.config.save', { text: remote(b.url, NEW_KEY) });
    expect(retyped.errors).toEqual([]);
    expect((await client.call('mcp.start', { name: 'remote' })).state).toBe('ready');
    await expect.poll(() => sentTo(b)).toContain(NEW_KEY);
    expect(sentTo(b)).not.toContain(KEY);
    expect((await client.call('mcp.config.save', { text: retyped.text })).saved).toBe(true);
    const back = await client.call('mcp.config.save', { text: retyped.text.replace(b.url, a.url) });
    expect(back.errors.map((e) => e.message)).toEqual([headerMoved(b, a)]);
  });

  it('an env value saved masked with the command, arguments or folder changed is not given to the new one', async () => {
    const { client, dataDir } = await start();
    const first = await client.call('mcp.config.save', {
      text: mcpConfigText({ local: stdioEntry({ API_KEY: TOKEN }) }),
    });
    expect(first.errors).toEqual([]);
    const record = join(dataDir, 'env-of-the-new-command.json');
    const was = `${process.execPath} ${mcpServerScript}`;

    const moved = await client.call('mcp.config.save', {
      text: mcpConfigText({ local: stdioEntry({ API_KEY: mask(TOKEN) }, ['--record-env', record]) }),
    });
    await client.call('mcp.start', { name: 'local' });
    expect(existsSync(record) ? readFileSync(record, 'utf8') : '').not.toContain(TOKEN);
    expect(moved.saved).toBe(false);
    expect(moved.errors).toEqual([
      {
        line: 11,
        column: 20,
        path: ['mcpServers', 'local', 'env', 'API_KEY'],
        message: `The env value API_KEY of "local" was entered for the command ${was}; the command is now ${was} --record-env ${record}, so the stored value is not given to it: type it again.`,
      },
    ]);

    const elsewhere = await client.call('mcp.config.save', {
      text: mcpConfigText({ local: { ...stdioEntry({ API_KEY: mask(TOKEN) }), cwd: dataDir } }),
    });
    expect(elsewhere.errors.map((e) => e.message)).toEqual([
      `The env value API_KEY of "local" was entered for the command ${was}; the command is now ${was} (in ${dataDir}), so the stored value is not given to it: type it again.`,
    ]);

    // A change that keeps the program keeps the value.
    const same = await client.call('mcp.config.save', {
      text: mcpConfigText({ local: { ...stdioEntry({ API_KEY: mask(TOKEN) }), disabled: false } }),
    });
    expect(same.errors).toEqual([]);
    expect((await client.call('mcp.start', { name: 'local' })).state).toBe('ready');
    const env = await client.stream(
      'mcp.callTool',
      { server: 'local', tool: 'env', arguments: { name: 'API_KEY' } },
      () => {},
    ).result;
    expect(env.content).toEqual([{ type: 'text', text: TOKEN }]);
  });

  it('mcp.json edited on disk to another origin drops the stored value until it is typed again', async () => {
    const { client, dataDir } = await start();
    const first = await client.call('mcp.config.save', { text: remote(a.url, KEY) });
    expect(first.errors).toEqual([]);
    writeFileSync(join(dataDir, 'mcp.json'), first.text.replace(a.url, b.url));
    await expect
      .poll(async () => (await client.call('mcp.config.get', {})).errors, { timeout: 5000 })
      .toEqual([
        { line: 6, column: 22, path: ['mcpServers', 'remote', 'headers', 'X-Api-Key'], message: movedMessage() },
      ]);
    // The server stays listed, saying why it does not run, rather than vanishing from the Tools page and chat.
    expect((await client.call('mcp.servers', { connect: true })).servers).toEqual([
      { name: 'remote', transport: 'http', state: 'error', message: movedMessage(), tools: [] },
    ]);
    await expect(client.call('mcp.start', { name: 'remote' })).rejects.toMatchObject({
      code: 'conflict',
      message: `"remote" cannot start until mcp.json is fixed: ${movedMessage()}`,
    });
    expect(sentTo(b)).not.toContain(KEY);
    // Dropped, not parked: moving the URL back does not bring it back either.
    const back = await client.call('mcp.config.save', { text: first.text });
    expect(back.saved).toBe(false);
    expect(back.errors[0].message).toMatch(/no stored value for this mask; paste the value again/);
  });

  it('a value stored before bindings existed is bound to what mcp.json runs it with, across restarts', async () => {
    const dir = tempDir();
    try {
      const secretsFile = join(dir.path, 'mcp-secrets.json');
      const legacy = { 'remote\0headers\0X-Api-Key': Buffer.from(fakeCipher.encrypt(KEY)).toString('base64') };
      writeFileSync(secretsFile, JSON.stringify(legacy));
      const masked = remote(a.url, mask(KEY));
      writeFileSync(join(dir.path, 'mcp.json'), masked);

      const one = await start({ dataDir: dir.path, cipher: fakeCipher });
      expect((await one.client.call('mcp.config.get', {})).errors).toEqual([]);
      expect((await one.client.call('mcp.start', { name: 'remote' })).state).toBe('ready');
      expect(readFileSync(secretsFile, 'utf8')).not.toContain(KEY);
      await one.close();
      apps.splice(apps.indexOf(one), 1);

      const two = await start({ dataDir: dir.path, cipher: fakeCipher });
      const moved = await two.client.call('mcp.config.save', { text: masked.replace(a.url, b.url) });
      expect(moved.errors.map((e) => e.message)).toEqual([movedMessage()]);
      expect((await two.client.call('mcp.config.save', { text: masked.replace('/mcp"', '/mcp?v=2"') })).saved).toBe(
        true,
      );
    } finally {
      dir.remove();
    }
  });
});
