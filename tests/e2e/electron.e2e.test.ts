import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { _electron } from 'playwright-core';
import { fixtureModel, startOllamaFixture } from '../fixtures/ollama';
import { tempDir } from '../helpers/app';
import { electronBinary } from './electron-binary';
import { screenshot } from './harness';

const bin = electronBinary();
if (bin.reason) console.warn(`Electron e2e skipped: ${bin.reason}`);

// Electron cannot be downloaded on the build machines; on a developer's machine this runs the real desktop app.
describe.skipIf(!bin.path)(`desktop app in Electron${bin.reason ? ` (skipped: ${bin.reason})` : ''}`, () => {
  it('opens a secure window whose renderer reaches main only through the typed client', async () => {
    const ollama = await startOllamaFixture({ models: [fixtureModel('llama3.2')] });
    const data = tempDir('hubdesk-electron-');
    const app = await _electron.launch({
      executablePath: bin.path!,
      args: [resolve(import.meta.dirname, '../..')],
      env: { ...process.env, OLLAMA_HOST: ollama.url, HUBDESK_DATA_DIR: data.path },
    });
    try {
      const page = await app.firstWindow();
      await page.getByTestId('ollama-status').getByText('Ollama 0.12.3').waitFor();
      expect(await page.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe('undefined');
      expect(await page.evaluate(() => typeof window.hubdesk?.call)).toBe('function');
      await page.getByTestId('nav-models').click();
      await page.getByText('llama3.2:latest').waitFor();
      await screenshot(page, 'electron-models');
    } finally {
      await app.close();
      await ollama.stop();
      data.remove();
    }
  });
});
