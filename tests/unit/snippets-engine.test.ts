import { afterEach, describe, expect, it, vi } from 'vitest';
import { snippets as inference } from '@huggingface/inference';
import { LOCAL_APPS, MODEL_LIBRARIES_UI_ELEMENTS, PIPELINE_DATA, type ModelData } from '@huggingface/tasks';
import type { ModelRecord, ProviderMappingEntry } from '@shared/model-record';
import type { SnippetOptions } from '@shared/contract/snippets';
import { SnippetEngine } from '../../electron/main/services/snippets/engine';
import { runLocalApp } from '../../electron/main/services/snippets/local-app-section';
import type { Logger } from '../../electron/main/services/log';

type Line = { level: string; msg: string; data?: Record<string, unknown> };
function memLog(): Logger & { lines: Line[] } {
  const lines: Line[] = [];
  const at = (level: string) => (msg: string, data?: Record<string, unknown>) => void lines.push({ level, msg, data });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

const providers = ['hf-inference', 'auto', 'together', 'fal-ai', 'replicate'] as const;
const tasks = Object.keys(PIPELINE_DATA);

function entry(
  provider: string,
  id: string,
  task: string,
  extra: Partial<ProviderMappingEntry> = {},
): ProviderMappingEntry {
  return { provider, hfModelId: id, providerId: `${provider}-org/${id.split('/')[1]}`, status: 'live', task, ...extra };
}

/** A record per task, with a mapping entry for every third-party provider of the matrix. */
function recordFor(task: string, tags: string[] = [], extra: Partial<ModelRecord> = {}): ModelRecord {
  const id = `org/${task}-model`;
  return {
    id,
    pipeline_tag: task,
    tags,
    library_name: 'transformers',
    inferenceProviderMapping: ['together', 'fal-ai', 'replicate'].map((p) => entry(p, id, task)),
    ...extra,
  };
}

/** The library called directly, with the arguments spelled out here (not through the engine's helpers). */
function direct(model: ModelRecord, provider: string, opts: Record<string, unknown>) {
  const data = { ...model, inference: '' } as unknown as ModelData;
  const mapping = model.inferenceProviderMapping?.find((e) => e.provider === provider);
  try {
    return {
      list: inference
        .getInferenceSnippets(data as never, provider as never, mapping as never, opts)
        .map((s) => ({ language: s.language, client: s.client, content: s.content })),
    };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

const optionSets: { name: string; options: SnippetOptions; accessToken?: string; lib: Record<string, unknown> }[] = [
  { name: 'defaults', options: {}, lib: {} },
  { name: 'streaming', options: { streaming: true }, lib: { streaming: true } },
  { name: 'billTo', options: { billTo: 'acme-corp' }, lib: { billTo: 'acme-corp' } },
  {
    name: 'endpointUrl',
    options: { endpointUrl: 'https://my-endpoint.example/v1' },
    lib: { endpointUrl: 'https://my-endpoint.example/v1' },
  },
  { name: 'directRequest', options: { directRequest: true }, lib: { directRequest: true } },
  { name: 'accessToken', options: {}, accessToken: 'hf_literalToken1234', lib: { accessToken: 'hf_literalToken1234' } },
  { name: 'custom input', options: { inputs: 'Bonjour "le" monde' }, lib: { inputs: '"Bonjour \\"le\\" monde"' } },
  {
    name: 'chat params',
    options: { messages: [{ role: 'user', content: 'Hi there' }], temperature: 0.2, max_tokens: 64, top_p: 0.9 },
    lib: { messages: [{ role: 'user', content: 'Hi there' }], temperature: 0.2, max_tokens: 64, top_p: 0.9 },
  },
];

const variants: { name: string; make: (task: string) => ModelRecord }[] = [
  { name: 'plain', make: (t) => recordFor(t) },
  { name: 'conversational', make: (t) => recordFor(t, ['conversational']) },
  { name: 'custom_code', make: (t) => recordFor(t, ['custom_code']) },
  {
    name: 'lora adapter',
    make: (t) => {
      const r = recordFor(t, ['lora']);
      r.inferenceProviderMapping = r.inferenceProviderMapping!.map((e) =>
        e.provider === 'fal-ai' ? { ...e, adapter: 'lora', adapterWeightsPath: 'lora.safetensors' } : e,
      );
      return r;
    },
  },
];

describe('snippet engine = the libraries called directly', () => {
  const engine = new SnippetEngine(memLog());

  it('matches getInferenceSnippets for every task × provider × option × model variant', () => {
    let compared = 0;
    let nonEmpty = 0;
    const tasksWithSnippets = new Set<string>();
    for (const task of tasks)
      for (const v of variants)
        for (const provider of providers)
          for (const o of optionSets) {
            const model = v.make(task);
            const want = direct(model, provider, o.lib);
            const got = engine.generate({
              model,
              kinds: ['inference'],
              options: { ...o.options, provider },
              accessToken: o.accessToken,
            }).sections[0];
            const where = `${task} / ${v.name} / ${provider} / ${o.name}`;
            if (want.error) {
              expect(got.error, where).toContain(want.error);
            } else {
              expect(
                got.snippets.map(({ language, client, content }) => ({ language, client, content })),
                where,
              ).toEqual(want.list);
              if (want.list!.length === 0) {
                expect(got.notice, where).toBe(`No inference snippets for task "${task}" with provider "${provider}".`);
              } else {
                nonEmpty++;
                tasksWithSnippets.add(task);
                expect(got.notice).toBeUndefined();
              }
            }
            compared++;
          }
    expect(compared).toBe(tasks.length * variants.length * providers.length * optionSets.length);
    // The library supports 31 pipeline tags; every one of them was compared with real content.
    expect(tasksWithSnippets.size).toBe(31);
    expect(nonEmpty).toBeGreaterThan(1000);
  });

  it('a provider the library refuses shows its message; an unsupported pair is named and logged to the app log', () => {
    const log = memLog();
    const e = new SnippetEngine(log);
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const chat = recordFor('text-generation', ['conversational']);
    const refused = e.generate({ model: chat, kinds: ['inference'], options: { provider: 'openai' } }).sections[0];
    expect(refused.error).toMatch(/closed-source and does not support HF tokens/);
    const none = e.generate({
      model: recordFor('fill-mask'),
      kinds: ['inference'],
      options: { provider: 'together' },
    }).sections[0];
    expect(none.snippets).toEqual([]);
    expect(none.notice).toBe('No inference snippets for task "fill-mask" with provider "together".');
    expect(log.lines.some((l) => l.msg.includes('Failed to get provider helper for together (fill-mask)'))).toBe(true);
    // An input the provider cannot take throws inside the library: its message, in the pane.
    const asr = e.generate({
      model: recordFor('automatic-speech-recognition'),
      kinds: ['inference'],
      options: { provider: 'together' },
    });
    expect(asr.sections[0].error).toMatch(/expects a Blob/);
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it('lists hf-inference, auto and every mapped provider with its status', () => {
    const m = recordFor('text-to-image');
    m.inferenceProviderMapping![1].status = 'staging';
    expect(engine.generate({ model: m, kinds: [] }).providers).toEqual([
      { id: 'hf-inference' },
      { id: 'auto' },
      { id: 'together', status: 'live', providerId: 'together-org/text-to-image-model' },
      { id: 'fal-ai', status: 'staging', providerId: 'fal-ai-org/text-to-image-model' },
      { id: 'replicate', status: 'live', providerId: 'replicate-org/text-to-image-model' },
    ]);
  });

  it('caches by model, provider and options, but never a result carrying a token', () => {
    const e = new SnippetEngine();
    const model = recordFor('text-generation', ['conversational']);
    const a = e.generate({ model, options: { provider: 'together' } });
    expect(e.generate({ model, options: { provider: 'together' } })).toBe(a);
    expect(e.generate({ model, options: { provider: 'together', streaming: true } })).not.toBe(a);
    expect(e.generate({ model: { ...model, tags: [] }, options: { provider: 'together' } })).not.toBe(a);
    const size = e.cacheSize;
    e.generate({ model, options: { provider: 'together' }, accessToken: 'hf_x1234567' });
    expect(e.cacheSize).toBe(size);
  });
});

describe('library and local-app generators', () => {
  const engine = new SnippetEngine();
  const libs = Object.entries(MODEL_LIBRARIES_UI_ELEMENTS).filter(([, l]) => 'snippets' in l && l.snippets);

  it('every library generator runs on a minimal record without throwing', () => {
    expect(libs.length).toBeGreaterThan(100);
    for (const [lib] of libs) {
      const s = engine.generate({ model: { id: 'org/minimal', tags: [], library_name: lib }, kinds: ['library'] })
        .sections[0];
      expect(s.error, lib).toBeUndefined();
      expect(s.snippets.length > 0 || !!s.notice, lib).toBe(true);
    }
  });

  it('shows the fallback notes the libraries print for incomplete records', () => {
    const note = (m: Partial<ModelRecord>) =>
      engine
        .generate({ model: { id: 'org/m', tags: [], ...m }, kinds: ['library'] })
        .sections[0].snippets.map((s) => s.content)
        .join('\n');
    expect(note({ library_name: 'transformers' })).toContain('Type of model unknown');
    expect(note({ library_name: 'peft' })).toMatch(/Base model is not found|Task type is invalid/);
    expect(note({ library_name: 'ultralytics' })).toContain("Couldn't find a valid YOLO version tag");
    expect(note({ library_name: 'speechbrain' })).toContain('interface not specified in config.json');
    expect(note({ library_name: 'transformers.js' })).toContain('Unknown pipeline tag');
    expect(note({ library_name: 'espnet' })).toContain('unknown model type');
    const js = engine.generate({ model: { id: 'o/m', tags: [], library_name: 'transformers.js' }, kinds: ['library'] });
    expect(js.sections[0].snippets[0].language).toBe('js');
    expect(engine.generate({ model: { id: 'o/m', tags: [] }, kinds: ['library'] }).sections[0].notice).toBe(
      'This model names no library.',
    );
  });

  it('every local app runs on a minimal record without throwing', () => {
    const minimal: ModelRecord = { id: 'org/tiny-GGUF', tags: ['gguf'], gguf: { context_length: 4096 } };
    for (const key of Object.keys(LOCAL_APPS)) {
      const r = runLocalApp(key, minimal);
      expect(r.snippets.length + (r.deeplink ? 1 : 0), key).toBeGreaterThan(0);
      for (const s of r.snippets) expect(typeof s.content, key).toBe('string');
    }
  });

  it('fills the quant picked on the model page into the Ollama command; deeplinks come as buttons', () => {
    const model: ModelRecord = {
      id: 'bartowski/Llama-3.2-1B-Instruct-GGUF',
      tags: ['gguf', 'conversational'],
      pipeline_tag: 'text-generation',
      gguf: { context_length: 131072 },
      siblings: [{ rfilename: 'Llama-3.2-1B-Instruct-Q8_0.gguf' }, { rfilename: 'Llama-3.2-1B-Instruct-Q4_K_M.gguf' }],
    };
    const r = engine.generate({ model, quant: 'Q8_0', kinds: ['local-app'] });
    const ollama = r.sections[0].snippets.find((s) => s.client === 'ollama');
    expect(ollama?.content).toBe('ollama run hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q8_0');
    expect(r.deeplinks.map((d) => d.app)).toContain('lmstudio');
    expect(r.deeplinks.find((d) => d.app === 'lmstudio')?.url).toContain('Llama-3.2-1B-Instruct-Q8_0.gguf');
  });
});

afterEach(() => vi.restoreAllMocks());
