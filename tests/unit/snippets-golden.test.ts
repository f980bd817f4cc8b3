import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { Snippet, SnippetOptions } from '@shared/contract/snippets';
import type { ModelRecord } from '@shared/model-record';
import { SnippetEngine } from '../../electron/main/services/snippets/engine';
import { quoteCurlBody } from '../../electron/main/services/snippets/shell-quoting';

/**
 * Golden files for generated snippets: one file per model × provider × kind × language × client, so a library upgrade
 * or an engine change shows up as a reviewable diff. `UPDATE_GOLDEN=1 npx vitest run tests/unit/snippets-golden.test.ts`
 * rewrites them. Every snippet is also checked for syntax by the language's own tools.
 */
const goldenDir = resolve(import.meta.dirname, '../golden/snippets');
const update = process.env.UPDATE_GOLDEN === '1';

interface Case {
  model: ModelRecord;
  providers: string[];
  quant?: string;
  options?: SnippetOptions;
}

const chat: ModelRecord = {
  id: 'meta-llama/Llama-3.1-8B-Instruct',
  pipeline_tag: 'text-generation',
  library_name: 'transformers',
  tags: ['transformers', 'safetensors', 'llama', 'text-generation', 'conversational'],
  transformersInfo: { auto_model: 'AutoModelForCausalLM', pipeline_tag: 'text-generation', processor: 'AutoTokenizer' },
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

const cases: Record<string, Case> = {
  chat: { model: chat, providers: ['together', 'auto'] },
  // A user's message with an apostrophe: shell snippets must still parse.
  'chat-apostrophe': {
    model: chat,
    providers: ['together'],
    options: { messages: [{ role: 'user', content: "What's the capital of France? It's 'Paris', isn't it?" }] },
  },
  'text-to-image': {
    model: {
      id: 'black-forest-labs/FLUX.1-dev',
      pipeline_tag: 'text-to-image',
      library_name: 'diffusers',
      tags: ['diffusers', 'text-to-image'],
      inferenceProviderMapping: [
        {
          provider: 'fal-ai',
          hfModelId: 'black-forest-labs/FLUX.1-dev',
          providerId: 'fal-ai/flux/dev',
          status: 'live',
          task: 'text-to-image',
        },
      ],
    },
    providers: ['fal-ai'],
  },
  asr: {
    model: {
      id: 'openai/whisper-large-v3',
      pipeline_tag: 'automatic-speech-recognition',
      library_name: 'transformers',
      tags: ['transformers', 'audio', 'automatic-speech-recognition'],
      transformersInfo: {
        auto_model: 'AutoModelForSpeechSeq2Seq',
        pipeline_tag: 'automatic-speech-recognition',
        processor: 'AutoProcessor',
      },
    },
    providers: ['hf-inference'],
  },
  'fill-mask': {
    model: {
      id: 'google-bert/bert-base-uncased',
      pipeline_tag: 'fill-mask',
      library_name: 'transformers',
      tags: ['transformers', 'bert', 'fill-mask'],
      mask_token: '[MASK]',
      transformersInfo: { auto_model: 'AutoModelForMaskedLM', pipeline_tag: 'fill-mask', processor: 'AutoTokenizer' },
    },
    providers: ['hf-inference'],
  },
  embeddings: {
    model: {
      id: 'sentence-transformers/all-MiniLM-L6-v2',
      pipeline_tag: 'sentence-similarity',
      library_name: 'sentence-transformers',
      tags: ['sentence-transformers', 'feature-extraction', 'sentence-similarity'],
    },
    providers: ['hf-inference'],
  },
  gguf: {
    model: {
      id: 'unsloth/Llama-3.2-1B-Instruct-GGUF',
      pipeline_tag: 'text-generation',
      library_name: 'gguf',
      tags: ['gguf', 'llama', 'conversational', 'text-generation'],
      gguf: { total: 1_235_814_432, architecture: 'llama', context_length: 131072, chat_template: '{{ bos_token }}' },
      siblings: [
        { rfilename: 'Llama-3.2-1B-Instruct-Q4_K_M.gguf', size: 807_694_464 },
        { rfilename: 'Llama-3.2-1B-Instruct-Q8_0.gguf', size: 1_321_083_200 },
      ],
    },
    providers: ['hf-inference'],
    quant: 'Q4_K_M',
  },
};

const ext: Record<string, string> = { python: 'py', js: 'js', sh: 'sh' };
const slug = (s: string) => s.replace(/[^A-Za-z0-9.-]+/g, '_');

/** Every snippet of every case, under the path of its golden file. */
function generate(): Map<string, Snippet> {
  const engine = new SnippetEngine();
  const out = new Map<string, Snippet>();
  for (const [name, c] of Object.entries(cases)) {
    for (const provider of c.providers) {
      const result = engine.generate({
        model: c.model,
        quant: c.quant,
        options: { ...c.options, provider },
        ollamaHost: 'http://127.0.0.1:11434',
      });
      for (const section of result.sections) {
        // Only the inference snippets depend on the provider: the others are written once per case.
        if (section.kind !== 'inference' && provider !== c.providers[0]) continue;
        const seen = new Map<string, number>();
        for (const s of section.snippets) {
          const base = `${section.kind}-${s.language}-${slug(s.client)}`;
          const n = (seen.get(base) ?? 0) + 1;
          seen.set(base, n);
          const dir = section.kind === 'inference' ? join(name, provider) : name;
          out.set(join(dir, `${base}${n > 1 ? `-${n}` : ''}.${ext[s.language] ?? 'txt'}`), s);
        }
      }
    }
  }
  return out;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

/** Syntax errors of a JavaScript module (top-level await allowed), as TypeScript's parser reports them. */
function jsErrors(code: string): string[] {
  const out = ts.transpileModule(code, {
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ESNext, allowJs: true },
    fileName: 'snippet.mjs',
  });
  return (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('shell quoting of curl bodies', () => {
  it('only the body is requoted when other quoted arguments follow it', () => {
    const content =
      "curl https://x.example \\\n    -X POST \\\n    -d '{\"inputs\": \"it's here\"}' \\\n    -H 'Content-Type: application/json'";
    const fixed = quoteCurlBody({ kind: 'inference', language: 'sh', client: 'curl', content });
    const args = execFileSync(
      'bash',
      ['-c', `curl() { for a in "$@"; do printf '%s\\n' "$a"; done; }\n${fixed.content}`],
      { encoding: 'utf8' },
    ).split('\n');
    expect(args).toContain('{"inputs": "it\'s here"}');
    expect(args).toContain('Content-Type: application/json');
  });

  it('a message with apostrophes reaches the server as the same JSON', () => {
    const c = cases['chat-apostrophe'];
    const [sh] = new SnippetEngine()
      .generate({ model: c.model, options: { ...c.options, provider: 'together' }, kinds: ['inference'] })
      .sections[0].snippets.filter((s) => s.client === 'curl');
    expect(sh.note).toMatch(/Apostrophes/);
    // bash runs the snippet with a `curl` that prints its -d argument instead of sending it.
    const body = execFileSync(
      'bash',
      [
        '-c',
        `curl() { while [ $# -gt 0 ]; do [ "$1" = -d ] && { printf '%s' "$2"; return; }; shift; done; }\n${sh.content}`,
      ],
      { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HF_TOKEN: 'hf_x' } },
    );
    expect(JSON.parse(body).messages[0].content).toBe(c.options!.messages![0].content);
  });
});

describe('snippet golden files', () => {
  const snippets = generate();

  it('every snippet matches its golden file, and no golden file is left over', () => {
    if (update) {
      rmSync(goldenDir, { recursive: true, force: true });
      for (const [path, s] of snippets) {
        mkdirSync(dirname(join(goldenDir, path)), { recursive: true });
        writeFileSync(join(goldenDir, path), s.content);
      }
    }
    const expected = filesUnder(goldenDir).sort();
    expect([...snippets.keys()].sort()).toEqual(expected);
    for (const [path, s] of snippets) expect(s.content, path).toBe(readFileSync(join(goldenDir, path), 'utf8'));
  });

  it('every python snippet compiles, every js snippet parses, every sh snippet passes bash -n', () => {
    const dir = join(tmpdir(), `hubdesk-golden-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    try {
      const failures: string[] = [];
      const py: string[] = [];
      let i = 0;
      for (const [path, s] of snippets) {
        const file = join(dir, `${i++}.${ext[s.language] ?? 'txt'}`);
        writeFileSync(file, s.content);
        if (s.language === 'python') py.push(file, path);
        else if (s.language === 'sh') {
          const r = spawnSync('bash', ['-n', file], { encoding: 'utf8' });
          if (r.status !== 0) failures.push(`${path}: ${r.stderr.trim()}`);
        } else if (s.language === 'js') {
          for (const e of jsErrors(s.content)) failures.push(`${path}: ${e}`);
        } else failures.push(`${path}: unknown language ${s.language}`);
      }
      // One interpreter compiles them all: each failure names its golden path.
      const report = execFileSync(
        'python3',
        [
          '-c',
          `import sys, py_compile
args = sys.argv[1:]
for f, name in zip(args[::2], args[1::2]):
    try:
        py_compile.compile(f, doraise=True)
    except py_compile.PyCompileError as e:
        print(name + ": " + str(e.msg).strip().splitlines()[-1])`,
          ...py,
        ],
        { encoding: 'utf8' },
      );
      failures.push(...report.split('\n').filter(Boolean));
      expect(py.length).toBeGreaterThan(0);
      expect(failures).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
