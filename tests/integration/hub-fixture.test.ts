import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHubFixture, type HubFixture } from '../fixtures/hub';

// The Hub fixture's file route answers as huggingface.co's `resolve` does: tests of the app rely on it.
describe('Hub fixture: resolve', () => {
  let hub: HubFixture;
  beforeAll(async () => {
    hub = await startHubFixture({
      models: [
        { id: 'acme/open', files: { 'README.md': '# Open\n', 'w.gguf': new Uint8Array([71, 71, 85, 70, 3, 0, 0, 0]) } },
        { id: 'acme/gated', gated: 'manual', files: { 'README.md': '# Gated\n' } },
      ],
      datasets: [{ id: 'acme/data', files: { 'README.md': '# Data\n' } }],
    });
  });
  afterAll(() => hub.stop());

  it('serves files, byte ranges, and the Hub error codes', async () => {
    const readme = await fetch(`${hub.url}/acme/open/resolve/main/README.md`);
    expect(readme.status).toBe(200);
    expect(readme.headers.get('x-repo-commit')).toMatch(/^[0-9a-f]{40}$/);
    expect(await readme.text()).toBe('# Open\n');

    const range = await fetch(`${hub.url}/acme/open/resolve/main/w.gguf`, { headers: { Range: 'bytes=0-3' } });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe('bytes 0-3/8');
    expect(new TextDecoder().decode(await range.arrayBuffer())).toBe('GGUF');

    const missing = await fetch(`${hub.url}/acme/open/resolve/main/nope.txt`);
    expect([missing.status, missing.headers.get('x-error-code')]).toEqual([404, 'EntryNotFound']);
    const gated = await fetch(`${hub.url}/acme/gated/resolve/main/README.md`);
    expect([gated.status, gated.headers.get('x-error-code')]).toEqual([401, 'GatedRepo']);
    const authed = await fetch(`${hub.url}/acme/gated/resolve/main/README.md`, {
      headers: { Authorization: 'Bearer hf_fixtureToken0001' },
    });
    expect(authed.status).toBe(200);
    const data = await fetch(`${hub.url}/datasets/acme/data/resolve/main/README.md`);
    expect(await data.text()).toBe('# Data\n');
  });
});
