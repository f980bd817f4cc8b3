import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServerStatus } from '@shared/contract/mcp';
import { mcpConfigText, startMcpHttpFixture, type McpHttpFixture } from '../fixtures/mcp-fixture';
import { startTestApp, type TestApp } from '../helpers/app';
import { closedPort } from '../helpers/ports';

const KEY = 'mcp-http-key-0123456789';

describe('MCP client over Streamable HTTP and SSE, against real SDK servers', () => {
  let app: TestApp;
  let http: McpHttpFixture;
  let sse: McpHttpFixture;
  let down: McpHttpFixture;
  const status = async (name: string): Promise<McpServerStatus> =>
    (await app.client.call('mcp.servers', {})).servers.find((s) => s.name === name)!;
  const settle = async (name: string) => {
    await expect
      .poll(async () => (await status(name)).state, { timeout: 10_000 })
      .toSatisfy((s: string) => s === 'ready' || s === 'error');
    return status(name);
  };
  const echo = (server: string, text: string) =>
    app.client.stream('mcp.callTool', { server, tool: 'echo', arguments: { text } }, () => {}).result;

  beforeAll(async () => {
    [http, sse, down] = await Promise.all([
      startMcpHttpFixture(['--require-header', `X-Api-Key=${KEY}`]),
      startMcpHttpFixture(['--sse-only']),
      startMcpHttpFixture(),
    ]);
    app = await startTestApp({ mcp: { connectTimeoutMs: 5000, maxRestarts: 0 } });
    const view = await app.client.call('mcp.config.save', {
      text: mcpConfigText({
        streamable: { url: http.url, headers: { 'X-Api-Key': KEY } },
        'wrong-key': { url: http.url, headers: { 'X-Api-Key': 'not-the-key-at-all' } },
        legacy: { url: sse.url },
        'legacy-typed': { type: 'sse', url: sse.url },
        nobody: { url: `http://127.0.0.1:${await closedPort()}/mcp` },
        goes: { type: 'streamable-http', url: down.url },
      }),
    });
    expect(view.errors).toEqual([]);
    await app.client.call('mcp.servers', { connect: true });
  });
  afterAll(async () => {
    await app?.services.dispose();
    await app?.close();
    await Promise.all([http?.stop(), sse?.stop(), down?.stop()]);
  });

  it('connects over Streamable HTTP with the configured headers and runs a tool', async () => {
    const s = await settle('streamable');
    expect(s).toMatchObject({ state: 'ready', transport: 'http', serverInfo: { name: 'hubdesk-fixture' } });
    expect(s.tools).toHaveLength(9);
    expect((await echo('streamable', 'over http')).content).toEqual([{ type: 'text', text: 'over http' }]);
  });

  it('says when the server refuses the credentials', async () => {
    expect(await settle('wrong-key')).toMatchObject({
      state: 'error',
      message: expect.stringMatching(/refused the credentials \(HTTP 401\): check "headers"/),
    });
  });

  it('falls back to SSE when the server refuses the Streamable HTTP POST, and uses SSE when told to', async () => {
    for (const name of ['legacy', 'legacy-typed']) {
      const s = await settle(name);
      expect(s.state, s.message).toBe('ready');
      expect((await echo(name, `via ${name}`)).content).toEqual([{ type: 'text', text: `via ${name}` }]);
    }
  });

  it('explains a URL where nothing listens, and a server that went away; the others keep working', async () => {
    expect(await settle('nobody')).toMatchObject({
      state: 'error',
      message: expect.stringMatching(/^Nothing answers at http:\/\/127\.0\.0\.1:\d+\/mcp: is the server running\?/),
    });
    expect((await settle('goes')).state).toBe('ready');
    await down.stop();
    await expect(echo('goes', 'anyone?')).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/"goes" could not be reached for echo: Nothing answers at/),
    });
    expect((await echo('streamable', 'still fine')).content).toEqual([{ type: 'text', text: 'still fine' }]);
  });
});
