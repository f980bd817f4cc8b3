import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { endpointEnv, envVars, secretEnv } from '../../shared/environment';
import { defaultSettings } from '../../electron/main/services/settings';
import { endpointSettings } from '../../shared/contract/settings';

const readme = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');
/** The README's "Environment:" paragraph, up to the next blank line. */
const paragraph = readme.slice(readme.indexOf('\nEnvironment:')).split('\n\n')[0];

describe('the one table of environment variables', () => {
  it('the README names every variable, with the default of each endpoint', () => {
    expect(paragraph).toContain('Environment:');
    for (const v of envVars) expect(paragraph, v.name).toContain(`\`${v.name}\``);
    for (const s of endpointSettings)
      expect(paragraph, s).toContain(`\`${endpointEnv[s].name}\` (default \`${endpointEnv[s].default}\`)`);
  });

  it('the README names no variable the table lacks', () => {
    const named = [...paragraph.matchAll(/`([A-Z][A-Z0-9_]{3,})`/g)].map((m) => m[1]);
    // GPU_BOX_KEY is the example's own `apiKeyEnv`, not a variable HubDesk reads.
    expect(named.filter((n) => n !== 'GPU_BOX_KEY' && !envVars.some((v) => v.name === n))).toEqual([]);
  });

  it('the settings defaults are the table defaults, and each setting and secret has one variable', () => {
    for (const s of endpointSettings) expect(defaultSettings[s]).toBe(endpointEnv[s].default);
    expect(Object.values(secretEnv).map((v) => v.name)).toEqual([
      'HF_TOKEN',
      'FAL_KEY',
      'OLLAMA_API_KEY',
      'HUBDESK_PROXY',
    ]);
    expect(new Set(envVars.map((v) => v.name)).size).toBe(envVars.length);
  });
});
