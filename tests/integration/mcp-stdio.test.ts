import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Input } from '@shared/contract';
import type { McpServerStatus } from '@shared/contract/mcp';
import { mcpConfigText, stdioEntry } from '../fixtures/mcp-fixture';
import { startTestApp, type TestApp } from '../helpers/app';

const TOKEN = 'sk-fixture-0123456789abcdef';

describe('MCP client over stdio, against a real SDK server', () => {
  let app: TestApp;
  const call = (input: Input<'mcp.callTool'>) => app.client.stream('mcp.callTool', input, () => {});
  const status = async (name: string): Promise<McpServerStatus> =>
    (await app.client.call('mcp.servers', {})).servers.find((s) => s.name === name)!;

  beforeAll(async () => {
    process.env.HUBDESK_PARENT_ONLY = 'not for child processes';
    app = await startTestApp({ mcp: { connectTimeoutMs: 5000, restartBaseMs: 50, restartMaxMs: 200 } });
    const view = await app.client.call('mcp.config.save', {
      text: mcpConfigText({
        fixture: stdioEntry({ API_KEY: TOKEN }),
        other: stdioEntry(),
        missing: { command: 'hubdesk-no-such-command-xyz' },
        exits: stdioEntry({ MCP_FIXTURE_MODE: 'exit-at-start', API_KEY: TOKEN }),
        hangs: stdioEntry({ MCP_FIXTURE_MODE: 'hang' }),
        garbage: stdioEntry({ MCP_FIXTURE_MODE: 'garbage' }),
        off: { ...stdioEntry(), disabled: true },
      }),
    });
    expect(view.errors).toEqual([]);
  });
  afterAll(async () => {
    delete process.env.HUBDESK_PARENT_ONLY;
    await app?.services.dispose();
    await app?.close();
  });

  it('starts nothing until asked, then connects lazily and lists the tools', async () => {
    const before = await app.client.call('mcp.servers', {});
    expect(before.servers.map((s) => `${s.name}:${s.state}`)).toEqual([
      'fixture:stopped',
      'other:stopped',
      'missing:stopped',
      'exits:stopped',
      'hangs:stopped',
      'garbage:stopped',
      'off:disabled',
    ]);
    await app.client.call('mcp.servers', { connect: true });
    await expect.poll(async () => (await status('fixture')).state, { timeout: 10_000 }).toBe('ready');
    const s = await status('fixture');
    expect(s.serverInfo).toEqual({ name: 'hubdesk-fixture', version: '1.2.3' });
    expect(s.tools.map((t) => t.name)).toEqual(['echo', 'add', 'slow', 'crash', 'big', 'env', 'fail', 'log', 'image']);
    expect(s.tools[1]).toMatchObject({ description: 'Adds two numbers.', inputSchema: { required: ['a', 'b'] } });
  });

  it('runs tools; secrets reach the server in its env, HubDesk’s own environment does not', async () => {
    const events: unknown[] = [];
    const echo = await app.client.stream(
      'mcp.callTool',
      { server: 'fixture', tool: 'echo', arguments: { text: 'hi' } },
      (e) => events.push(...e),
    ).result;
    expect(echo).toMatchObject({ content: [{ type: 'text', text: 'hi' }], isError: false, truncated: false });
    expect(events).toEqual([{ type: 'started', server: 'fixture', tool: 'echo' }]);
    expect((await call({ server: 'fixture', tool: 'add', arguments: { a: 2, b: 40 } }).result).content).toEqual([
      { type: 'text', text: '42' },
    ]);
    expect((await call({ server: 'fixture', tool: 'env', arguments: { name: 'API_KEY' } }).result).content[0]).toEqual({
      type: 'text',
      text: TOKEN,
    });
    const parent = await call({ server: 'fixture', tool: 'env', arguments: { name: 'HUBDESK_PARENT_ONLY' } }).result;
    expect(parent.content[0]).toEqual({ type: 'text', text: '(unset)' });
  });

  it('reports tool errors, bad arguments and unknown tools clearly', async () => {
    const fail = await call({ server: 'fixture', tool: 'fail', arguments: {} }).result;
    expect(fail).toMatchObject({ isError: true, content: [{ text: 'the tool failed on purpose' }] });
    const bad = await call({ server: 'fixture', tool: 'add', arguments: { a: 'two' } }).result;
    expect(bad).toMatchObject({ isError: true, content: [{ text: 'add needs numbers "a" and "b"' }] });
    await expect(call({ server: 'fixture', tool: 'nope', arguments: {} }).result).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringMatching(/"fixture" has no tool "nope" \(its tools: echo, add, slow/),
    });
    await expect(call({ server: 'ghost', tool: 'echo', arguments: {} }).result).rejects.toMatchObject({
      code: 'not_found',
    });
    // Arguments that are not an object never reach the server.
    await expect(
      app.client.stream('mcp.callTool', { server: 'fixture', tool: 'echo', arguments: '{"text":' as never }, () => {})
        .result,
    ).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('cuts a 10 MB result to a bounded one, with a note', async () => {
    const big = await call({ server: 'fixture', tool: 'big', arguments: { mb: 10 } }).result;
    expect(big.truncated).toBe(true);
    const text = (big.content[0] as { text: string }).text;
    expect(text.length).toBeLessThan(600 * 1024);
    expect(text).toMatch(/cut by HubDesk: the tool returned 10\.0 MB/);
    expect((await status('fixture')).state).toBe('ready');
  });

  it('times out a call that takes too long, and cancels one on request; the server stays usable', async () => {
    await expect(
      call({ server: 'fixture', tool: 'slow', arguments: { ms: 30_000 }, timeoutMs: 300 }).result,
    ).rejects.toMatchObject({ code: 'timeout', message: '"fixture" did not answer slow within 0.3 s.' });
    // The fixture logs "slow: started" (stderr) when the call runs there: cancel then, not after a guessed delay.
    const started = async () =>
      (await app.client.call('mcp.log', { name: 'fixture' })).text.split('slow: started').length - 1;
    const before = await started();
    const slow = call({ server: 'fixture', tool: 'slow', arguments: { ms: 30_000 } });
    await expect.poll(started).toBe(before + 1);
    slow.cancel();
    await expect(slow.result).rejects.toMatchObject({ code: 'aborted' });
    expect((await call({ server: 'fixture', tool: 'echo', arguments: { text: 'still here' } }).result).content).toEqual(
      [{ type: 'text', text: 'still here' }],
    );
  });

  it('a server that exits mid-call gives a clear error, is restarted, and the others are unaffected', async () => {
    await expect(call({ server: 'other', tool: 'echo', arguments: { text: 'warm' } }).result).resolves.toBeTruthy();
    await expect(call({ server: 'fixture', tool: 'crash', arguments: {} }).result).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/"fixture" stopped during crash: .*crashing on purpose/),
    });
    expect((await call({ server: 'other', tool: 'echo', arguments: { text: 'ok' } }).result).content).toEqual([
      { type: 'text', text: 'ok' },
    ]);
    await expect.poll(async () => (await status('fixture')).state, { timeout: 10_000 }).toBe('ready');
    expect((await call({ server: 'fixture', tool: 'echo', arguments: { text: 'back' } }).result).content).toEqual([
      { type: 'text', text: 'back' },
    ]);
  });

  it('explains servers that cannot start: missing command, exit at start, hang, malformed JSON-RPC', async () => {
    const settled = async (name: string) => {
      await expect.poll(async () => (await status(name)).state, { timeout: 10_000 }).toBe('error');
      return (await status(name)).message;
    };
    expect(await settled('missing')).toMatch(/The command "hubdesk-no-such-command-xyz" was not found/);
    expect(await settled('exits')).toMatch(/exited while starting.*FIXTURE_API_KEY is not set \(API_KEY=\*\*\*\)/);
    expect(await settled('hangs')).toMatch(/did not answer initialize within 5 s/);
    expect(await settled('garbage')).toMatch(/not JSON-RPC/);
    await expect(call({ server: 'missing', tool: 'echo', arguments: {} }).result).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/"missing" is not running: The command .* was not found/),
    });
    await expect(call({ server: 'off', tool: 'echo', arguments: {} }).result).rejects.toMatchObject({
      message: '"off" is disabled in mcp.json.',
    });
  });

  it('keeps each server’s stderr in a bounded log with secrets masked', async () => {
    await call({ server: 'fixture', tool: 'log', arguments: { text: `the key is ${TOKEN}` } }).result;
    const log = await app.client.call('mcp.log', { name: 'fixture' });
    expect(log.text).toContain('fixture server started');
    expect(log.text).toContain('crashing on purpose');
    expect(log.text).toContain('the key is ***');
    expect(log.text).not.toContain(TOKEN);
    const exits = await app.client.call('mcp.log', { name: 'exits' });
    expect(exits.text).toContain('fatal: FIXTURE_API_KEY is not set');
  });

  it('stops and restarts a server by hand', async () => {
    expect((await app.client.call('mcp.stop', { name: 'other' })).state).toBe('stopped');
    expect((await app.client.call('mcp.restart', { name: 'other' })).state).toBe('ready');
    expect((await app.client.call('mcp.start', { name: 'other' })).tools).toHaveLength(9);
  });
});

describe('MCP server lifecycle: back-off, giving up, quitting', () => {
  /** Command lines of running processes (POSIX ps): to prove no server outlives the app. */
  const running = (marker: string) =>
    execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l.includes(marker)).length;

  it('waits before restarting a crashed server, gives up after too many crashes, and stops every server on quit', async () => {
    const marker = `hubdesk-marker-${process.pid}-${Date.now()}`;
    const app = await startTestApp({ mcp: { connectTimeoutMs: 5000, restartBaseMs: 60_000, maxRestarts: 1 } });
    try {
      await app.client.call('mcp.config.save', {
        text: mcpConfigText({ flaky: stdioEntry(undefined, ['--marker', marker]) }),
      });
      const crash = () =>
        app.client.stream('mcp.callTool', { server: 'flaky', tool: 'crash', arguments: {} }, () => {}).result;
      const status = async () => (await app.client.call('mcp.servers', {})).servers[0];

      expect((await app.client.call('mcp.start', { name: 'flaky' })).state).toBe('ready');
      await expect(crash()).rejects.toMatchObject({ code: 'unavailable' });
      const waiting = await status();
      expect(waiting).toMatchObject({ state: 'restarting', message: 'The server exited: crashing on purpose' });
      expect(waiting.retryInMs).toBeGreaterThan(0);
      expect(waiting.retryInMs).toBeLessThanOrEqual(60_000);

      // Asking for it does not wait for the back-off.
      expect((await app.client.call('mcp.start', { name: 'flaky' })).state).toBe('ready');
      await expect(crash()).rejects.toMatchObject({ code: 'unavailable' });
      expect(await status()).toMatchObject({
        state: 'error',
        message: expect.stringMatching(/It stopped 2 times in a row; press Restart to try again\.$/),
      });

      expect((await app.client.call('mcp.restart', { name: 'flaky' })).state).toBe('ready');
      expect(running(marker)).toBe(1);
      await app.services.dispose();
      await expect.poll(() => running(marker), { timeout: 10_000 }).toBe(0);
    } finally {
      await app.services.dispose();
      await app.close();
    }
  });
});
