import { LOCAL_APPS } from '@huggingface/tasks';
import { describe, expect, it } from 'vitest';
import { isAllowedExternal, loadExternalTargets } from '../../electron/main/services/external';
import { startTestApp } from '../helpers/app';

describe('links that leave the app', () => {
  it('allows https links to known hosts and their subdomains only', () => {
    expect(isAllowedExternal('https://huggingface.co/openai/whisper-large-v3')).toBe(true);
    expect(isAllowedExternal('https://docs.ollama.com/api')).toBe(true);
    expect(isAllowedExternal('https://www.youtube.com/watch?v=x')).toBe(true);
    expect(isAllowedExternal('http://huggingface.co/')).toBe(false);
    expect(isAllowedExternal('https://huggingface.co.evil.example/')).toBe(false);
    expect(isAllowedExternal('https://user:pass@huggingface.co/')).toBe(false);
    expect(isAllowedExternal('https://evil.example/')).toBe(false);
    expect(isAllowedExternal('not a url')).toBe(false);
  });

  it("allows the local apps' own deeplinks, as @huggingface/tasks builds them, and no other scheme", async () => {
    // Until the library has been loaded (on first use, not at start-up), no app scheme is allowed.
    expect(isAllowedExternal('lmstudio://open_from_hf?model=org/model-GGUF')).toBe(false);
    await loadExternalTargets();
    const model = {
      id: 'bartowski/Llama-3.2-1B-Instruct-GGUF',
      tags: ['gguf'],
      inference: '',
      gguf: { total: 1, context_length: 8192 },
    };
    const links = Object.values(LOCAL_APPS)
      .filter((a) => 'deeplink' in a)
      .map((a) =>
        String((a as { deeplink: (m: never, f?: string) => URL | string }).deeplink(model as never, 'x-Q4_K_M.gguf')),
      );
    expect(links.length).toBeGreaterThan(0);
    for (const l of links) expect(isAllowedExternal(l), l).toBe(true);
    for (const bad of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'data:text/html,hi',
      'ms-settings:privacy',
      'vscode://x',
    ])
      expect(isAllowedExternal(bad), bad).toBe(false);
  });

  it('app.openExternal refuses a foreign link with forbidden, and the web mode opens nothing itself', async () => {
    const app = await startTestApp();
    await expect(app.client.call('app.openExternal', { url: 'https://evil.example/' })).rejects.toMatchObject({
      code: 'forbidden',
    });
    await expect(app.client.call('app.openExternal', { url: 'https://huggingface.co/' })).resolves.toEqual({
      opened: false,
    });
    await app.close();
  });
});
