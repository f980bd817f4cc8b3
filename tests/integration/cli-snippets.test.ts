import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'vite';
import { snippets as inference } from '@huggingface/inference';
import { closedPort } from '../helpers/ports';
import { startHubFixture } from '../fixtures/hub';

const root = resolve(import.meta.dirname, '../..');

/**
 * The CLI as a user runs it: `bin/hubdesk.js` requiring `out/main/cli.js`. Built here from the current
 * source into a scratch install under test-results (so it resolves the project's node_modules).
 */
describe('hubdesk snippets (spawned CLI)', () => {
  let dir: string;
  let bin: string;
  let hubUrl: string;

  const record = {
    id: 'openai/whisper-large-v3-turbo',
    pipeline_tag: 'automatic-speech-recognition',
    tags: ['transformers', 'audio'],
    library_name: 'transformers',
    downloads: 123,
    // The Hub API shape: an object keyed by provider.
    inferenceProviderMapping: {
      'fal-ai': { status: 'live', providerId: 'fal-ai/whisper', task: 'automatic-speech-recognition' },
    },
  };
  const chat = {
    id: 'meta-llama/Llama-3.1-8B-Instruct',
    pipeline_tag: 'text-generation',
    tags: ['conversational'],
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

  const run = (...args: string[]) => {
    const r = spawnSync(process.execPath, [bin, ...args], {
      cwd: dir,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        HUBDESK_DATA_DIR: join(dir, 'data'),
        HF_ENDPOINT: hubUrl,
      },
      timeout: 30_000,
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const file = (name: string, content: unknown) => {
    const p = join(dir, name);
    writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
    return p;
  };

  beforeAll(async () => {
    mkdirSync(join(root, 'test-results'), { recursive: true });
    dir = mkdtempSync(join(root, 'test-results', 'cli-'));
    mkdirSync(join(dir, 'bin'));
    copyFileSync(join(root, 'bin/hubdesk.js'), join(dir, 'bin/hubdesk.js'));
    bin = join(dir, 'bin/hubdesk.js');
    hubUrl = `http://127.0.0.1:${await closedPort()}`;
    await build({
      configFile: false,
      logLevel: 'silent',
      root,
      resolve: { alias: { '@shared': join(root, 'shared') } },
      build: {
        ssr: join(root, 'electron/main/cli.ts'),
        outDir: join(dir, 'out/main'),
        emptyOutDir: false,
        minify: false,
        rollupOptions: { output: { format: 'cjs', entryFileNames: 'cli.js' } },
      },
    });
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints the snippets of a --model-file record with a header line each', () => {
    const r = run('snippets', '--model-file', file('whisper.json', record), '--kind', 'inference');
    // The record maps only fal-ai: the default provider's code is printed with a note on stderr, not as working.
    expect(r.stderr).toBe(
      'hubdesk: note: hf-inference does not serve openai/whisper-large-v3-turbo: this code will fail. Providers that do: fal-ai.\n',
    );
    expect(run('snippets', '--model-file', file('whisper.json', record), '--provider', 'fal-ai').stderr).toBe('');
    expect(r.code).toBe(0);
    const headers = r.stdout.split('\n').filter((l) => l.startsWith('=== '));
    expect(headers).toEqual([
      '=== inference · python · huggingface_hub ===',
      '=== inference · python · requests ===',
      '=== inference · js · huggingface.js ===',
      '=== inference · js · fetch ===',
      '=== inference · sh · curl ===',
    ]);
    expect(r.stdout).toContain('https://router.huggingface.co/hf-inference/models/openai/whisper-large-v3-turbo');
  });

  it('--json gives {kind, language, client, content} equal to the library for the same arguments', () => {
    const r = run(
      'snippets',
      '--model-file',
      file('chat.json', chat),
      '--provider',
      'together',
      '--stream',
      '--bill-to',
      'acme',
      '--kind',
      'inference',
      '--json',
    );
    expect(r.code).toBe(0);
    const got = JSON.parse(r.stdout) as { kind: string; language: string; client: string; content: string }[];
    const want = inference.getInferenceSnippets(
      { ...chat, inference: '' } as never,
      'together',
      chat.inferenceProviderMapping[0] as never,
      { streaming: true, billTo: 'acme' },
    );
    expect(got).toEqual(
      want.map((s) => ({ kind: 'inference', language: s.language, client: s.client, content: s.content })),
    );
    expect(got[0].content).toContain('stream=True');
  });

  it('reads the Hub mapping object shape, and filters by --lang and --client', () => {
    const r = run('snippets', '--model-file', file('w.json', record), '--provider', 'fal-ai', '--lang', 'sh', '--json');
    expect(r.code).toBe(0);
    const got = JSON.parse(r.stdout) as { client: string; content: string }[];
    expect(got.map((s) => s.client)).toEqual(['curl']);
    expect(got[0].content).toContain('https://router.huggingface.co/fal-ai/fal-ai/whisper');
    const one = run('snippets', '--model-file', file('w.json', record), '--client', 'requests', '--json');
    expect((JSON.parse(one.stdout) as { client: string }[]).map((s) => s.client)).toEqual(['requests']);
  });

  it('--direct, --endpoint-url and --inputs reach the library', () => {
    const direct = run(
      'snippets',
      '--model-file',
      file('c.json', chat),
      '--provider',
      'together',
      '--direct',
      '--lang',
      'sh',
    );
    expect(direct.stdout).toContain('$TOGETHER_API_KEY');
    const ep = run(
      'snippets',
      '--model-file',
      file('c.json', chat),
      '--endpoint-url',
      'https://ep.example/v1',
      '--lang',
      'sh',
    );
    expect(ep.stdout).toContain('https://ep.example/v1');
    const cls = { id: 'org/sentiment', pipeline_tag: 'text-classification', tags: [] };
    const inp = run(
      'snippets',
      '--model-file',
      file('t.json', cls),
      '--inputs',
      'Bonjour',
      '--lang',
      'python',
      '--client',
      'requests',
    );
    expect(inp.stdout).toContain('"inputs": "Bonjour"');
  });

  it('library and local kinds: the library snippet, and Ollama with the quant', () => {
    const lib = run('snippets', '--model-file', file('w.json', record), '--kind', 'library');
    expect(lib.code).toBe(0);
    expect(lib.stdout).toMatch(/^=== library · python · transformers/);
    const gguf = {
      id: 'bartowski/Llama-3.2-1B-Instruct-GGUF',
      tags: ['gguf', 'conversational'],
      pipeline_tag: 'text-generation',
      gguf: { context_length: 131072 },
    };
    const app = run(
      'snippets',
      '--model-file',
      file('g.json', gguf),
      '--kind',
      'local-app',
      '--quant',
      'Q8_0',
      '--client',
      'ollama',
    );
    expect(app.stdout).toContain('ollama run hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q8_0');
    const server = run(
      'snippets',
      '--model-file',
      file('g.json', gguf),
      '--kind',
      'local-server',
      '--lang',
      'sh',
      '--stream',
    );
    expect(server.stdout).toContain('/api/chat');
    expect(server.stdout).toContain('"stream": true');
  });

  /** Spawned without blocking this process, so the Hub fixture here can answer it. */
  const runAsync = (env: Record<string, string>, ...args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      const child = spawn(process.execPath, [bin, ...args], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', HOME: dir, ...env },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += String(d)));
      child.stderr.on('data', (d) => (stderr += String(d)));
      child.on('close', (code) => done({ code, stdout, stderr }));
    });

  it('without --quant picks the page default for this hardware (GGUF header read from the Hub), no placeholders', async () => {
    const hub = await startHubFixture();
    try {
      const id = 'unsloth/Llama-3.2-1B-Instruct-GGUF';
      const withHardware = (name: string, hardwareOverride: unknown) => {
        const data = join(dir, name);
        mkdirSync(data, { recursive: true });
        writeFileSync(join(data, 'settings.json'), JSON.stringify({ version: 1, values: { hardwareOverride } }));
        return { HUBDESK_DATA_DIR: data, HF_ENDPOINT: hub.url };
      };
      // 2 GB GPU, 4 GB RAM: Q8_0 is the largest that fits in VRAM (the e2e test sees the same on the page).
      const gpu = await runAsync(
        withHardware('hw-gpu', { vramGiB: 2, ramGiB: 4 }),
        'snippets',
        id,
        '--kind',
        'local-app',
        '--client',
        'ollama',
      );
      expect(gpu.stderr).toBe('');
      expect(gpu.stdout).toContain(`ollama run hf.co/${id}:Q8_0`);
      const header = hub.requests.filter((r) => r.path === `/${id}/resolve/main/Llama-3.2-1B-Instruct-Q4_K_M.gguf`);
      expect(header.length).toBeGreaterThan(0);
      expect(String(header[0].headers.range)).toMatch(/^bytes=0-\d+$/);
      // No GPU, 2 GB RAM: Q8_0 no longer fits; the largest that does is UD-Q4_K_XL.
      const small = await runAsync(withHardware('hw-small', { vramGiB: 0, ramGiB: 2 }), 'snippets', id, '--json');
      expect(small.code).toBe(0);
      const list = JSON.parse(small.stdout) as { kind: string; client: string; content: string }[];
      expect(list.find((s) => s.client === 'ollama')?.content).toContain(`hf.co/${id}:UD-Q4_K_XL`);
      expect(
        list.filter((s) => s.kind === 'local-server').every((s) => s.content.includes(`hf.co/${id}:UD-Q4_K_XL`)),
      ).toBe(true);
      expect(small.stdout).not.toMatch(/\{\{[A-Z_]+\}\}/);
      // The inference code is still offered, with no provider serving this GGUF repo (the page says so).
      expect(list.some((s) => s.kind === 'inference')).toBe(true);
      expect(small.stderr).toMatch(/^hubdesk: note: No inference provider serves unsloth\/Llama-3\.2-1B-Instruct-GGUF/);
    } finally {
      await hub.stop();
    }
  });

  it('--quant reaches every local-app command that names the repo, Docker included (issue #25 item 11)', async () => {
    const id = 'bartowski/Llama-3.2-3B-Instruct-GGUF';
    const hub = await startHubFixture({
      models: [
        {
          id,
          library_name: 'gguf',
          pipeline_tag: 'text-generation',
          tags: ['gguf', 'llama', 'conversational', 'text-generation'],
          gguf: { total: 3_212_749_888, architecture: 'llama', context_length: 131072 },
          siblings: [
            { rfilename: 'Llama-3.2-3B-Instruct-Q4_K_M.gguf', size: 2_019_377_376 },
            { rfilename: 'Llama-3.2-3B-Instruct-Q8_0.gguf', size: 3_421_899_200 },
          ],
        },
      ],
    });
    try {
      const r = await runAsync(
        { HUBDESK_DATA_DIR: join(dir, 'data'), HF_ENDPOINT: hub.url },
        'snippets',
        id,
        '--kind',
        'local-app',
        '--quant',
        'Q8_0',
      );
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      // llama.cpp's and vLLM's "Use Docker" and the Docker Model Runner app: all run the chosen quant.
      const docker = r.stdout.split('\n').filter((l) => l.startsWith('docker model run'));
      expect(docker.length).toBeGreaterThanOrEqual(2);
      expect(new Set(docker)).toEqual(new Set([`docker model run hf.co/${id}:Q8_0`]));
      // Every command that names the repo with a tag names the chosen one.
      const tagged = [...r.stdout.matchAll(new RegExp(`${id.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:(\\S+)`, 'g'))];
      expect(tagged.length).toBeGreaterThan(0);
      expect(new Set(tagged.map((m) => m[1]))).toEqual(new Set(['Q8_0']));
    } finally {
      await hub.stop();
    }
  });

  it('a GGUF-tagged record without quant files leaves no {{QUANT_TAG}} or {{GGUF_FILE}} in any kind', () => {
    const bare = {
      id: 'someone/tiny-GGUF',
      tags: ['gguf', 'conversational'],
      pipeline_tag: 'text-generation',
      gguf: { context_length: 4096 },
    };
    const r = run('snippets', '--model-file', file('bare.json', bare), '--json');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('{{');
    const list = JSON.parse(r.stdout) as { client: string; content: string }[];
    expect(list.find((s) => s.client === 'ollama')?.content).toBe('ollama run hf.co/someone/tiny-GGUF');
  });

  it('a model of the embedded catalogue resolves offline', () => {
    // A model @huggingface/tasks names for text-classification; the Hub is unreachable in this test.
    const id = 'distilbert/distilbert-base-uncased-finetuned-sst-2-english';
    const r = run('snippets', id, '--kind', 'inference', '--lang', 'python', '--client', 'requests');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`https://router.huggingface.co/hf-inference/models/${id}`);
  });

  it.each([
    [
      'an unknown model (Hub unreachable)',
      ['snippets', 'nobody/no-such-model-xyz'],
      /^hubdesk: unknown model "nobody\/no-such-model-xyz"/,
    ],
    [
      'an unsupported task/provider pair',
      ['snippets', '--model-file', '{chat}', '--provider', 'replicate', '--kind', 'inference'],
      /^hubdesk: No inference snippets for task "text-generation" with provider "replicate"\.$/,
    ],
    [
      'a provider the library refuses',
      ['snippets', '--model-file', '{chat}', '--provider', 'openai', '--kind', 'inference'],
      /closed-source/,
    ],
    ['a bad flag', ['snippets', '--model-file', '{chat}', '--frobnicate'], /^hubdesk: unknown option --frobnicate/],
    ['a bad kind', ['snippets', '--model-file', '{chat}', '--kind', 'cloud'], /^hubdesk: unknown kind "cloud"/],
    [
      'a flag without its value',
      ['snippets', '--model-file', '{chat}', '--provider'],
      /^hubdesk: --provider needs a value$/,
    ],
    [
      'an unknown provider',
      ['snippets', '--model-file', '{chat}', '--provider', 'acme'],
      /^hubdesk: unknown provider "acme"/,
    ],
    [
      'a bad endpoint URL',
      ['snippets', '--model-file', '{chat}', '--endpoint-url', 'ftp:x'],
      /^hubdesk: --endpoint-url: must be an http\(s\) URL$/,
    ],
    ['a missing file', ['snippets', '--model-file', 'nope.json'], /^hubdesk: no such file: nope\.json$/],
    ['a file that is not a record', ['snippets', '--model-file', '{bad}'], /is not a (JSON model|Hub model) record/],
    ['no model at all', ['snippets'], /^hubdesk: a model id or --model-file <record.json> is required$/],
    ['an unknown command', ['frobnicate'], /^hubdesk: unknown command "frobnicate"/],
  ])('%s: exit code 1 and one line, no stack trace', (_name, rawArgs, message) => {
    const args = rawArgs.map((a) =>
      a === '{chat}' ? file('chat.json', chat) : a === '{bad}' ? file('bad.json', '[1,2]') : a,
    );
    const r = run(...args);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('--help prints the usage', () => {
    const r = run('snippets', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: hubdesk snippets <model-id> | --model-file <record.json>');
  });

  it('the bin says to build when out/main/cli.js is missing', () => {
    const bare = mkdtempSync(join(root, 'test-results', 'cli-bare-'));
    try {
      mkdirSync(join(bare, 'bin'));
      copyFileSync(join(root, 'bin/hubdesk.js'), join(bare, 'bin/hubdesk.js'));
      const r = spawnSync(process.execPath, [join(bare, 'bin/hubdesk.js'), 'snippets', 'x/y'], { encoding: 'utf8' });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/run `npm run build`/);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});
