import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snippets as inference } from '@huggingface/inference';
import { AppError } from '@shared/errors';
import type { ModelRecord } from '@shared/model-record';
import { startTestApp, tempDir, type TestApp } from '../helpers/app';

const HF_TOKEN = 'hf_integrationToken12345';
const chat: ModelRecord = {
  id: 'meta-llama/Llama-3.1-8B-Instruct',
  pipeline_tag: 'text-generation',
  tags: ['conversational'],
  library_name: 'transformers',
  inferenceProviderMapping: [
    {
      provider: 'together',
      hfModelId: 'meta-llama/Llama-3.1-8B-Instruct',
      providerId: 'meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo',
      status: 'live',
      task: 'conversational',
    },
  ],
};

describe('snippets through the web transport', () => {
  let app: TestApp;
  let desktop: TestApp;
  const out = tempDir('hubdesk-save-');
  let nextPath: string | undefined;
  const dialogCalls: { defaultName: string; extension: string }[] = [];

  beforeAll(async () => {
    app = await startTestApp({ env: { HF_TOKEN } });
    desktop = await startTestApp({
      env: {},
      saveDialog: async (o) => {
        dialogCalls.push(o);
        return nextPath;
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await desktop.close();
    out.remove();
  });

  it('generates what the library gives, for every kind, and never the token', async () => {
    const r = await app.client.call('snippets.generate', { model: chat, options: { provider: 'together' } });
    expect(r.sections.map((s) => s.kind)).toEqual(['inference', 'library', 'local-app', 'local-server']);
    const want = inference.getInferenceSnippets(
      { ...chat, inference: '' } as never,
      'together',
      chat.inferenceProviderMapping![0] as never,
      {},
    );
    expect(r.sections[0].snippets.map((s) => s.content)).toEqual(want.map((s) => s.content));
    expect(JSON.stringify(r)).not.toContain(HF_TOKEN);
    expect(r.sections[3].notice).toMatch(/GGUF/);
  });

  it('the bill-to setting applies unless the call names another organisation', async () => {
    await app.client.call('settings.update', { billTo: 'acme-labs' });
    const r = await app.client.call('snippets.generate', { model: chat, kinds: ['inference'], options: {} });
    expect(r.sections[0].snippets.find((s) => s.client === 'curl')?.content).toContain('X-HF-Bill-To: acme-labs');
    const other = await app.client.call('snippets.generate', {
      model: chat,
      kinds: ['inference'],
      options: { billTo: 'other-org' },
    });
    expect(other.sections[0].snippets.find((s) => s.client === 'curl')?.content).toContain('X-HF-Bill-To: other-org');
    await app.client.call('settings.update', { billTo: null });
  });

  it('"Insert my token" renders with the real token; without one it says what to do', async () => {
    const r = await app.client.call('snippets.withToken', { model: chat, options: { provider: 'together' } });
    expect(r.sections).toHaveLength(1);
    expect(r.sections[0].snippets.every((s) => s.content.includes(HF_TOKEN))).toBe(true);
    const e = (await desktop.client
      .call('snippets.withToken', { model: chat, options: {} })
      .catch((x: unknown) => x)) as AppError;
    expect(e).toBeInstanceOf(AppError);
    expect(e.code).toBe('unauthorized');
    expect(e.message).toMatch(/No Hugging Face token/);
  });

  it('rejects a bad option with invalid_input', async () => {
    const e = (await app.client
      .call('snippets.generate', { model: chat, options: { endpointUrl: 'ftp://x' } })
      .catch((x: unknown) => x)) as AppError;
    expect(e.code).toBe('invalid_input');
    expect(e.message).toContain('options.endpointUrl');
  });

  it('saves through the dialog port to the path it returned (atomically), and nowhere when cancelled', async () => {
    const target = join(out.path, 'project', 'llama_requests.py');
    nextPath = target;
    const r = await desktop.client.call('snippets.save', { fileName: 'llama_requests.py', content: 'print(1)' });
    expect(r).toEqual({ saved: true, path: target });
    expect(readFileSync(target, 'utf8')).toBe('print(1)\n');
    expect(dialogCalls.at(-1)).toEqual({ defaultName: 'llama_requests.py', extension: 'py' });
    expect(readdirSync(join(out.path, 'project'))).toEqual(['llama_requests.py']);
    // Overwriting is the dialog's question; once the user said yes, the new content replaces the old whole.
    writeFileSync(target, 'old content that is longer than the new one');
    await desktop.client.call('snippets.save', { fileName: 'llama_requests.py', content: 'new' });
    expect(readFileSync(target, 'utf8')).toBe('new\n');
    nextPath = undefined;
    const cancelled = await desktop.client.call('snippets.save', { fileName: 'other.py', content: 'x' });
    expect(cancelled).toEqual({ saved: false });
    expect(existsSync(join(out.path, 'project', 'other.py'))).toBe(false);
  });

  it('the renderer cannot choose a path, and web mode has no save dialog', async () => {
    const e = (await desktop.client
      .call('snippets.save', { fileName: '../../etc/passwd', content: 'x' })
      .catch((x: unknown) => x)) as AppError;
    expect(e.code).toBe('invalid_input');
    const web = (await app.client
      .call('snippets.save', { fileName: 'a.py', content: 'x' })
      .catch((x: unknown) => x)) as AppError;
    expect(web.code).toBe('unavailable');
  });
});
