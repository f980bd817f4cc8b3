import { describe, expect, it } from 'vitest';
import type { ModelRecord } from '@shared/model-record';
import { SnippetEngine } from '../../electron/main/services/snippets/engine';
import { unservedWarning } from '../../electron/main/services/snippets/inference-section';
import { fallbackQuant, fillPlaceholders } from '../../electron/main/services/snippets/local-app-section';

const gguf: ModelRecord = {
  id: 'unsloth/Llama-3.2-1B-Instruct-GGUF',
  library_name: 'gguf',
  pipeline_tag: 'text-generation',
  tags: ['gguf', 'conversational'],
  gguf: { context_length: 131072 },
  siblings: [
    { rfilename: 'Llama-3.2-1B-Instruct-Q8_0.gguf', size: 3 },
    { rfilename: 'Llama-3.2-1B-Instruct-Q4_K_M.gguf', size: 2 },
    { rfilename: 'Llama-3.2-1B-Instruct-Q2_K.gguf', size: 1 },
  ],
};
const served: ModelRecord = {
  id: 'meta-llama/Llama-3.1-8B-Instruct',
  pipeline_tag: 'text-generation',
  tags: ['conversational'],
  inferenceProviderMapping: [
    {
      provider: 'together',
      hfModelId: 'meta-llama/Llama-3.1-8B-Instruct',
      providerId: 'x',
      status: 'live',
      task: 'conversational',
    },
  ],
};

describe('snippets that say when they will not work', () => {
  it('a GGUF repo with no mapping: no provider serves it, the code still comes with the warning', () => {
    expect(unservedWarning(gguf, 'hf-inference')).toMatch(
      /No inference provider serves unsloth\/Llama-3\.2-1B-Instruct-GGUF/,
    );
    const r = new SnippetEngine().generate({ model: gguf, kinds: ['inference'] });
    expect(r.sections[0].snippets.length).toBeGreaterThan(0);
    expect(r.sections[0].warning).toMatch(/will fail until a provider serves the model/);
  });
  it('a served model: no warning for its provider or auto, a warning for another provider', () => {
    expect(unservedWarning(served, 'together')).toBeUndefined();
    expect(unservedWarning(served, 'auto')).toBeUndefined();
    expect(unservedWarning(served, 'hf-inference')).toMatch(
      /hf-inference does not serve .*Providers that do: together/,
    );
    // Nothing known (an embedded model without Hub data): no claim either way.
    expect(unservedWarning({ id: 'a/b', tags: [] }, 'hf-inference')).toBeUndefined();
    // A staging-only mapping is not a working provider.
    const staging = {
      ...served,
      inferenceProviderMapping: [{ ...served.inferenceProviderMapping![0], status: 'staging' as const }],
    };
    expect(unservedWarning(staging, 'together')).toMatch(/No inference provider serves/);
  });
});

describe('no placeholder reaches the user', () => {
  it('without a quant, local apps use the repo Q4_K_M (no hardware known in the engine)', () => {
    expect(fallbackQuant(gguf)).toBe('Q4_K_M');
    const r = new SnippetEngine().generate({ model: gguf, kinds: ['local-app', 'local-server'] });
    const text = JSON.stringify(r);
    expect(text).not.toMatch(/\{\{[A-Z_]+\}\}/);
    expect(text).toContain(`hf.co/${gguf.id}:Q4_K_M`);
  });
  it('a repo without quant files: tags are dropped, snippets needing a file name are left out', () => {
    const bare = { ...gguf, siblings: [] };
    expect(fallbackQuant(bare)).toBeUndefined();
    const r = new SnippetEngine().generate({ model: bare });
    expect(JSON.stringify(r)).not.toMatch(/\{\{[A-Z_]+\}\}/);
    expect(
      fillPlaceholders(
        [
          { kind: 'local-app', language: 'sh', client: 'ollama', content: 'ollama run hf.co/a/b:{{QUANT_TAG}}' },
          {
            kind: 'local-app',
            language: 'sh',
            client: 'localai',
            content: 'local-ai run huggingface://a/b/{{GGUF_FILE}}',
          },
          { kind: 'local-app', language: 'sh', client: 'lemonade', content: 'lemonade run user.b-{{QUANT_TAG}}' },
        ],
        {},
      ),
    ).toEqual([
      { kind: 'local-app', language: 'sh', client: 'ollama', content: 'ollama run hf.co/a/b' },
      { kind: 'local-app', language: 'sh', client: 'lemonade', content: 'lemonade run user.b' },
    ]);
  });
  it('the chosen quant fills {{QUANT_TAG}} wherever an app leaves it, as huggingface.co does', () => {
    // vLLM's "Use Docker" calls the Docker Model Runner snippet without the file: the library writes the placeholder.
    const r = new SnippetEngine().generate({ model: gguf, quant: 'Q8_0', kinds: ['local-app'] });
    const vllmDocker = r.sections[0].snippets.find((s) => s.client === 'vllm' && s.content.startsWith('docker'));
    expect(vllmDocker?.content).toBe(`docker model run hf.co/${gguf.id}:Q8_0`);
    const text = r.sections[0].snippets.map((s) => s.content).join('\n');
    expect(text).not.toMatch(new RegExp(`hf\\.co/${gguf.id}(?!:Q8_0)`));
    expect(
      fillPlaceholders(
        [
          { kind: 'local-app', language: 'sh', client: 'x', content: 'docker model run hf.co/a/b:{{QUANT_TAG}}' },
          { kind: 'local-app', language: 'sh', client: 'y', content: 'local-ai run huggingface://a/b/{{GGUF_FILE}}' },
        ],
        { quant: 'Q8_0', file: 'b-Q8_0.gguf' },
      ).map((s) => s.content),
    ).toEqual(['docker model run hf.co/a/b:Q8_0', 'local-ai run huggingface://a/b/b-Q8_0.gguf']);
  });
});
