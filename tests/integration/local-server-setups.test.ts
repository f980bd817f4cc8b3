import { execFile } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppSetups } from '@shared/contract/local-server';
import { AppError } from '@shared/errors';
import { KEY, startLocalServerApp, type LocalServerApp } from '../fixtures/local-server';
import { scriptedGguf } from '../fixtures/scripted-gguf';
import { tinyGguf } from '../fixtures/tiny-gguf';

// "Use from another app" through the real layers: `local.server.setups` over the web transport, with the key set,
// and the setups run as written (JavaScript with node, curl with bash) against the real server and engine.

const SCRIPT = ['▁Hello', '▁from', '▁HubDesk', '.'];

let t: LocalServerApp;
let chatId: string;
let setups: AppSetups;
const run = promisify(execFile);

beforeAll(async () => {
  t = await startLocalServerApp({
    'scripted-chat.gguf': scriptedGguf({ script: SCRIPT }),
    'embedder.gguf': tinyGguf({ architecture: 'bert' }),
  });
  chatId = t.ids['scripted-chat.gguf'];
  await t.app.client.call('local.server.set', { enabled: true, port: t.port, key: KEY });
  setups = await t.app.client.call('local.server.setups', { model: chatId });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const setup = (id: string) => setups.setups.find((s) => s.id === id)!;

describe('local server: setups for other apps', () => {
  it('are filled with the running server’s address, the model and its planned context; the key is nowhere', () => {
    expect(setups).toMatchObject({
      model: chatId,
      baseUrl: `http://127.0.0.1:${t.port}/v1`,
      keyEnv: 'HUBDESK_LOCAL_SERVER_KEY',
      contextFrom: 'plan',
      running: true,
    });
    expect(setups.setups.length).toBeGreaterThan(10);
    expect(JSON.stringify(setups)).not.toContain(KEY);
  });

  it('the JavaScript setups (OpenAI SDK, AI SDK) run as written with the key in the environment', async () => {
    const dir = join(t.home.path, 'code');
    mkdirSync(dir);
    symlinkSync(join(process.cwd(), 'node_modules'), join(dir, 'node_modules'));
    for (const id of ['openai-js', 'ai-sdk']) {
      const s = setup(id);
      writeFileSync(join(dir, s.file!), s.content);
      const { stdout } = await run(process.execPath, [join(dir, s.file!)], {
        env: { ...process.env, HUBDESK_LOCAL_SERVER_KEY: KEY },
      });
      expect(stdout.trim(), id).toBe('Hello from HubDesk.');
    }
  });

  it('the curl setup runs as written', async () => {
    const { stdout } = await run('bash', ['-c', setup('curl').content], {
      env: { PATH: process.env.PATH ?? '', HUBDESK_LOCAL_SERVER_KEY: KEY },
    });
    const reply = JSON.parse(stdout) as { model: string; choices: { message: { content: string } }[] };
    expect(reply.model).toBe(chatId);
    expect(reply.choices[0].message.content).toBe('Hello from HubDesk.');
  });

  it('an unknown model, or an embedding model, is refused with what to do', async () => {
    const unknown = await t.app.client.call('local.server.setups', { model: 'nobody/nothing/x.gguf' }).catch((e) => e);
    expect(unknown).toBeInstanceOf(AppError);
    expect(unknown).toMatchObject({ code: 'not_found', message: expect.stringMatching(/No local model/) });
    const emb = await t.app.client
      .call('local.server.setups', { model: t.ids['embedder.gguf'] })
      .catch((e: unknown) => e);
    expect(emb).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/embedding model/) });
  });
});
