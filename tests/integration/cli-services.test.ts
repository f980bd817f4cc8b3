import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../electron/main/cli/run';
import { cliEnvVars } from '../../electron/main/cli/args';
import { startHubFixture, type HubFixture } from '../fixtures/hub';
import { tempDir } from '../helpers/app';

// The CLI runs on the app's own services (createServices): the settings the app keeps, the keys where the app sends
// them, and nothing started that a snippet does not need.
describe('hubdesk snippets on the services of the app', () => {
  const id = 'acme/tiny-chat';
  const model = {
    id,
    pipeline_tag: 'text-generation',
    tags: ['conversational'],
    inferenceProviderMapping: [
      {
        provider: 'together',
        hfModelId: id,
        providerId: 'acme/tiny-chat-turbo',
        status: 'live',
        task: 'conversational',
      },
    ],
  };
  let hub: HubFixture;
  beforeAll(async () => {
    hub = await startHubFixture({ models: [model] });
  });
  afterAll(() => hub.stop());

  const cli = async (env: Record<string, string>, ...argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await run(
      argv,
      env,
      (s) => (stdout += s),
      (s) => (stderr += s),
    );
    return { code, stdout, stderr };
  };
  const withSettings = (values: Record<string, unknown>) => {
    const dir = tempDir();
    writeFileSync(join(dir.path, 'settings.json'), JSON.stringify({ version: 1, values }));
    return dir;
  };
  const args = ['snippets', id, '--provider', 'together', '--kind', 'inference', '--lang', 'sh'];
  const authOf = (path: string) => hub.requests.filter((r) => r.path === path).map((r) => r.headers.authorization);

  it("follows the app's Settings (Hub endpoint, bill-to), read by the settings service", async () => {
    const dir = withSettings({ hubEndpoint: hub.url, billTo: 'acme-org' });
    try {
      hub.requests.length = 0;
      const r = await cli({ HUBDESK_DATA_DIR: dir.path, HF_TOKEN: 'hf_cli_secret_token_1234' }, ...args);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      // The fixture's record (together serves it), not the embedded catalogue's.
      expect(r.stdout).toContain('"model": "acme/tiny-chat:together"');
      expect(r.stdout).toContain('X-HF-Bill-To: acme-org');
      // A Hub address set in the page gets no key until approved in the desktop app: the CLI approves nothing.
      const asked = authOf(`/api/models/${id}`);
      expect(asked.length).toBeGreaterThan(0);
      expect(asked.every((a) => a === undefined)).toBe(true);
    } finally {
      dir.remove();
    }
  });

  it('sends HF_TOKEN to the HF_ENDPOINT the environment names, and opens no chat database', async () => {
    const dir = withSettings({});
    try {
      hub.requests.length = 0;
      const r = await cli(
        { HUBDESK_DATA_DIR: dir.path, HF_ENDPOINT: hub.url, HF_TOKEN: 'hf_cli_secret_token_1234' },
        ...args,
      );
      expect(r.code).toBe(0);
      expect(authOf(`/api/models/${id}`)[0]).toBe('Bearer hf_cli_secret_token_1234');
      expect(r.stdout).not.toContain('X-HF-Bill-To');
      expect(existsSync(join(dir.path, 'chats.sqlite'))).toBe(false);
      expect(existsSync(join(dir.path, 'mcp.json'))).toBe(false);
      expect(JSON.parse(readFileSync(join(dir.path, 'settings.json'), 'utf8'))).toEqual({ version: 1, values: {} });
    } finally {
      dir.remove();
    }
  });

  it('--help names the environment variables it reads, from the one table', async () => {
    const r = await cli({}, 'snippets', '--help');
    expect(cliEnvVars.map((v) => v.name)).toEqual(['HF_ENDPOINT', 'HF_TOKEN', 'OLLAMA_HOST', 'HUBDESK_DATA_DIR']);
    for (const v of cliEnvVars) expect(r.stdout, v.name).toContain(`\n  ${v.name} `);
    expect(r.stdout).toContain('HF_ENDPOINT            the Hugging Face Hub (default https://huggingface.co)');
  });
});
