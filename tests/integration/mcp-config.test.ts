import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Cipher } from '../../electron/main/services/secrets';
import { mcpConfigText, stdioEntry } from '../fixtures/mcp-fixture';
import { startTestApp, tempDir, type TestApp } from '../helpers/app';

const TOKEN = 'sk-live-abcdefghijklmnop1234';

/** A reversible stand-in for Electron safeStorage: enough to prove nothing is written in plain text. */
const fakeCipher: Cipher = {
  available: () => true,
  encrypt: (s) => Buffer.from(Buffer.from(s).map((b) => b ^ 0x5a)),
  decrypt: (d) => Buffer.from(Buffer.from(d).map((b) => b ^ 0x5a)).toString(),
};

describe('mcp.json: configuration, validation and secrets', () => {
  const apps: TestApp[] = [];
  const start = async (opts: Parameters<typeof startTestApp>[0] = {}) => {
    const app = await startTestApp(opts);
    apps.push(app);
    return app;
  };
  afterEach(async () => {
    for (const a of apps.splice(0)) {
      await a.services.dispose();
      await a.close();
    }
  });

  it('starts empty, saves a server and masks its secrets everywhere the page and the disk see them', async () => {
    const { client, dataDir } = await start();
    const empty = await client.call('mcp.config.get', {});
    expect(empty).toMatchObject({ servers: [], errors: [], persistentSecrets: false });
    expect(JSON.parse(empty.text)).toEqual({ mcpServers: {} });

    const text = mcpConfigText({
      files: stdioEntry({ API_KEY: TOKEN, SHORT: 'abc' }),
      remote: { url: 'https://example.test/mcp', headers: { Authorization: `Bearer ${TOKEN}` }, disabled: true },
    });
    const saved = await client.call('mcp.config.save', { text });
    expect(saved.errors).toEqual([]);
    expect(saved.saved).toBe(true);
    expect(saved.servers).toEqual([
      expect.objectContaining({ name: 'files', transport: 'stdio', envKeys: ['API_KEY', 'SHORT'], headerKeys: [] }),
      expect.objectContaining({ name: 'remote', transport: 'http', disabled: true, headerKeys: ['Authorization'] }),
    ]);
    expect(saved.text).not.toContain(TOKEN);
    expect(saved.text).toContain('"API_KEY": "•••• 1234"');
    expect(saved.text).toContain('"SHORT": "••••"');
    const onDisk = readFileSync(join(dataDir, 'mcp.json'), 'utf8');
    expect(onDisk).toBe(saved.text);

    // Saving the masked text unchanged keeps the stored values.
    const again = await client.call('mcp.config.save', { text: saved.text });
    expect(again.errors).toEqual([]);
    expect(again.saved).toBe(true);
    expect((await client.call('mcp.config.get', {})).text).toBe(saved.text);
  });

  it('points a JSON syntax error at its line and column and writes nothing', async () => {
    const { client, dataDir } = await start();
    const text = '{\n  "mcpServers": {\n    "a": { "command": "node", },\n  }\n}\n';
    const view = await client.call('mcp.config.save', { text });
    expect(view.saved).toBe(false);
    expect(view.errors).toEqual([
      expect.objectContaining({ line: 3, column: 31, message: expect.stringMatching(/trailing comma/) }),
    ]);
    expect(() => readFileSync(join(dataDir, 'mcp.json'))).toThrow();
  });

  it('points schema errors at the offending value', async () => {
    const { client } = await start();
    const text = [
      '{',
      '  "mcpServers": {',
      '    "ok": { "command": "node" },',
      '    "bad-command": { "command": 42 },',
      '    "bad-url": { "url": "ftp://nope" },',
      '    "both": { "command": "x", "url": "https://a.test" },',
      '    "neither": { "args": [] }',
      '  }',
      '}',
    ].join('\n');
    const view = await client.call('mcp.config.save', { text });
    expect(view.saved).toBe(false);
    const at = (name: string) => view.errors.find((e) => e.path[1] === name);
    expect(at('bad-command')).toMatchObject({ line: 4, column: 33, path: ['mcpServers', 'bad-command', 'command'] });
    expect(at('bad-url')).toMatchObject({ line: 5, message: expect.stringMatching(/http\(s\) URL/) });
    expect(at('both')).toMatchObject({ line: 6, message: expect.stringMatching(/both "command" and "url"/) });
    expect(at('neither')).toMatchObject({ line: 7, message: expect.stringMatching(/needs "command".*or "url"/) });
    expect(view.errors.some((e) => e.path[1] === 'ok')).toBe(false);
  });

  it('refuses a mask it has no value for, pointing at it', async () => {
    const { client } = await start();
    const text = mcpConfigText({ fresh: stdioEntry({ API_KEY: '•••• 9999' }) });
    const view = await client.call('mcp.config.save', { text });
    expect(view.saved).toBe(false);
    expect(view.errors).toEqual([
      expect.objectContaining({ line: 9, column: 20, message: expect.stringMatching(/paste the value again/) }),
    ]);
  });

  it('imports Claude Desktop and VS Code files by merging their servers, and rejects a broken one with its line', async () => {
    const { client } = await start();
    await client.call('mcp.config.save', { text: mcpConfigText({ mine: { command: 'node' } }) });
    const claude = JSON.stringify({
      mcpServers: { files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] } },
      globalShortcut: 'Ctrl+Space',
    });
    const v1 = await client.call('mcp.config.import', { text: claude });
    expect(v1.servers.map((s) => s.name)).toEqual(['mine', 'files']);
    const vscode = JSON.stringify({ servers: { hf: { type: 'http', url: 'https://hf.test/mcp' } } });
    const v2 = await client.call('mcp.config.import', { text: vscode });
    expect(v2.servers.map((s) => `${s.name}:${s.transport}`)).toEqual(['mine:stdio', 'files:stdio', 'hf:http']);
    await expect(client.call('mcp.config.import', { text: '{\n  "mcpServers": {\n' })).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/^The imported file: line 3, column 1:/),
    });
  });

  it('reloads when mcp.json changes on disk, masking a value written there by hand', async () => {
    const { client, dataDir } = await start();
    const before = await client.call('mcp.config.get', {});
    writeFileSync(join(dataDir, 'mcp.json'), mcpConfigText({ byHand: stdioEntry({ API_KEY: TOKEN }) }));
    await expect
      .poll(async () => (await client.call('mcp.config.get', {})).servers.map((s) => s.name), { timeout: 5000 })
      .toEqual(['byHand']);
    const after = await client.call('mcp.config.get', {});
    expect(after.revision).toBeGreaterThan(before.revision);
    expect(after.text).not.toContain(TOKEN);
    const servers = await client.call('mcp.servers', {});
    expect(servers.servers.map((s) => s.name)).toEqual(['byHand']);
  });

  it('stores secrets encrypted with the cipher, keeps them across restarts, and the log masks them', async () => {
    const dir = tempDir();
    try {
      const a = await start({ dataDir: dir.path, cipher: fakeCipher });
      const view = await a.client.call('mcp.config.save', {
        text: mcpConfigText({ s: stdioEntry({ API_KEY: TOKEN }) }),
      });
      expect(view.persistentSecrets).toBe(true);
      expect(readFileSync(join(dir.path, 'mcp-secrets.json'), 'utf8')).not.toContain(TOKEN);
      a.services.log.info('a line that mentions the secret', { value: TOKEN });
      expect(readFileSync(join(dir.path, 'logs', 'hubdesk.log'), 'utf8')).not.toContain(TOKEN);

      const b = await start({ dataDir: dir.path, cipher: fakeCipher });
      const mcp = await b.services.mcp();
      expect(mcp.config.servers()[0].env).toEqual({ API_KEY: TOKEN });
      expect((await b.client.call('mcp.config.get', {})).errors).toEqual([]);

      // Without the cipher (web mode), the stored value cannot be read back: the mask is reported, not guessed.
      const c = await start({ dataDir: dir.path });
      const cv = await c.client.call('mcp.config.get', {});
      expect(cv.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/stored value is gone/) })]);
    } finally {
      dir.remove();
    }
  });
});
