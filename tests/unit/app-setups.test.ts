import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { LocalModel } from '@shared/contract/local-models';
import type { AppSetup, LocalServerStatus } from '@shared/contract/local-server';
import { appSetups, renderAppSetups } from '../../electron/main/services/snippets/app-setups';

// "Use from another app": every setup filled for one model, as golden files (UPDATE: `npx vitest run -u <this file>`),
// each checked by its language's own parser, and the quoting of an odd model id run through bash.

const facts = {
  baseUrl: 'http://127.0.0.1:11435/v1',
  model: 'bartowski/Qwen2.5-Coder-7B-Instruct-GGUF/Qwen2.5-Coder-7B-Instruct-Q4_K_M.gguf',
  name: 'Qwen2.5 Coder 7B Instruct',
  contextLength: 32768,
};
// A model known only by its path (no Hub repo): spaces, quotes and a backslash in the id every setup must carry.
const odd = {
  baseUrl: 'http://127.0.0.1:12000/v1',
  model: `/home/u/My Models/Bob's "best" model\\v2.gguf`,
  name: `Bob's "best" model`,
  contextLength: 2048,
};

const ext: Record<AppSetup['language'], string> = {
  python: 'py',
  js: 'mjs',
  sh: 'sh',
  yaml: 'yaml',
  json: 'json',
  text: 'txt',
};

// PyYAML is not everywhere python3 is: without it the YAML is checked by its golden file alone.
const hasPyYaml = spawnSync('python3', ['-c', 'import yaml']).status === 0;

/** Syntax errors of each setup, from python3, TypeScript's parser, bash -n, JSON.parse and PyYAML when present. */
function syntaxErrors(setups: AppSetup[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'hubdesk-setups-'));
  const errors: string[] = [];
  try {
    for (const s of setups) {
      const file = join(dir, `${s.id}.${ext[s.language]}`);
      writeFileSync(file, s.content);
      const run = (cmd: string, args: string[]) => {
        const r = spawnSync(cmd, args, { encoding: 'utf8' });
        if (r.status !== 0) errors.push(`${s.id}: ${r.stderr.trim()}`);
      };
      if (s.language === 'python') run('python3', ['-m', 'py_compile', file]);
      else if (s.language === 'sh') run('bash', ['-n', file]);
      else if (s.language === 'yaml' && hasPyYaml)
        run('python3', ['-c', 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))', file]);
      else if (s.language === 'json') {
        try {
          JSON.parse(s.content);
        } catch (e) {
          errors.push(`${s.id}: ${(e as Error).message}`);
        }
      } else if (s.language === 'js') {
        const out = ts.transpileModule(s.content, {
          reportDiagnostics: true,
          compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ESNext, allowJs: true },
          fileName: file,
        });
        for (const d of out.diagnostics ?? [])
          errors.push(`${s.id}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return errors;
}

/** Runs a shell setup in bash with `curl` and `claude` replaced by functions that print what they were given. */
function runShell(content: string, env: Record<string, string>): string {
  const fakes = `curl() { while [ $# -gt 0 ]; do [ "$1" = -d ] && { printf '%s' "$2"; return; }; shift; done; }
claude() { printf '%s\\n' "$ANTHROPIC_BASE_URL" "$ANTHROPIC_AUTH_TOKEN" "\${ANTHROPIC_API_KEY-unset}" "$ANTHROPIC_MODEL" "$ANTHROPIC_DEFAULT_HAIKU_MODEL"; }`;
  return execFileSync('bash', ['-c', `${fakes}\n${content}`], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...env },
  });
}

describe('"Use from another app" setups', () => {
  const setups = renderAppSetups(facts);
  const byId = Object.fromEntries(setups.map((s) => [s.id, s]));

  it('one setup per app, in the order shown', () => {
    expect(setups.map((s) => s.id)).toEqual([
      'openai-python',
      'openai-js',
      'ai-sdk',
      'langchain',
      'continue',
      'cline',
      'open-webui',
      'zed',
      'vscode-copilot',
      'claude-code',
      'curl',
    ]);
  });

  it.each(setups.map((s) => [s.id, s] as const))('%s matches its golden file', async (id, s) => {
    await expect(s.content).toMatchFileSnapshot(`../golden/app-setups/${id}.${ext[s.language]}`);
  });

  it('the steps, install lines, file names and notes match their golden file', async () => {
    const around = setups.map(({ content: _content, ...rest }) => rest);
    await expect(JSON.stringify(around, null, 2)).toMatchFileSnapshot('../golden/app-setups/setups.json');
  });

  it('each names the base URL (Claude Code: the origin, as it adds /v1 itself) and the model, and reads the key from HUBDESK_LOCAL_SERVER_KEY', () => {
    for (const s of setups) {
      expect(s.content, s.id).toContain(s.id === 'claude-code' ? 'http://127.0.0.1:11435' : facts.baseUrl);
      expect(s.content, s.id).toContain(facts.model);
      // The key is read, never written: VS Code and Open WebUI's UI steps take it by hand, the rest by name.
      expect(`${s.content}\n${s.steps?.join('\n') ?? ''}`, s.id).toMatch(/HUBDESK_LOCAL_SERVER_KEY|your server key/);
    }
    expect(byId['claude-code'].content).not.toContain('11435/v1');
  });

  it('the apps that need the context length typed get the model’s', () => {
    expect(byId.continue.content).toContain('contextLength: 32768');
    expect(byId.cline.content).toMatch(/Context Window Size: +32768/);
    expect(JSON.parse(byId.zed.content).language_models.openai_compatible.hubdesk.available_models[0].max_tokens).toBe(
      32768,
    );
    const [vscode] = JSON.parse(byId['vscode-copilot'].content);
    expect(vscode.models[0].maxInputTokens + vscode.models[0].maxOutputTokens).toBe(32768);
    expect(vscode.models[0].url).toBe('http://127.0.0.1:11435/v1/chat/completions');
  });

  it('every setup parses in its language, for a plain model id and an odd one', () => {
    expect(syntaxErrors(setups)).toEqual([]);
    expect(syntaxErrors(renderAppSetups(odd))).toEqual([]);
  });

  it('an odd model id reaches curl’s body and Claude Code’s variables unchanged; the key comes from the environment', () => {
    const o = Object.fromEntries(renderAppSetups(odd).map((s) => [s.id, s]));
    const body = JSON.parse(runShell(o.curl.content, {}));
    expect(body).toEqual({ model: odd.model, messages: [{ role: 'user', content: 'Say hello in one sentence.' }] });
    const env = runShell(o['claude-code'].content, {
      HUBDESK_LOCAL_SERVER_KEY: 'k-123',
      ANTHROPIC_API_KEY: 'sk-ant-x',
    });
    expect(env.split('\n')).toEqual(['http://127.0.0.1:12000', 'k-123', 'unset', odd.model, odd.model, '']);
    expect(JSON.parse(o.zed.content).language_models.openai_compatible.hubdesk.available_models[0].name).toBe(
      odd.model,
    );
  });

  it('agents warn when the context is too short for their own prompt', () => {
    expect(setups.filter((s) => s.note)).toEqual([]);
    const short = renderAppSetups(odd).filter((s) => s.note);
    expect(short.map((s) => s.id)).toEqual(['cline', 'vscode-copilot', 'claude-code']);
    expect(short[0].note).toMatch(/2048 tokens of context is likely too short/);
  });
});

describe('the facts a model’s setups are filled with', () => {
  const model: LocalModel = {
    id: 'org/tiny-GGUF/tiny-Q4_K_M.gguf',
    name: 'tiny-Q4_K_M',
    title: 'Tiny',
    path: '/m/tiny-Q4_K_M.gguf',
    parts: 1,
    source: 'folder',
    folder: '/m',
    sizeBytes: 1,
    embedding: false,
    deletable: false,
    plan: { contextSize: 4096, maxContext: 131072, gpuLayers: 0 },
  };
  const off: LocalServerStatus = {
    enabled: false,
    running: false,
    port: 11500,
    keySet: true,
    keySource: 'stored',
    lan: false,
    corsOrigins: [],
    keepBodies: false,
  };
  const on: LocalServerStatus = { ...off, enabled: true, running: true, url: 'http://127.0.0.1:11500/v1' };
  const loaded = {
    id: model.id,
    name: 'Tiny',
    contextSize: 16384,
    gpuLayers: 0,
    sequences: 1,
    busy: 0,
    waiting: 0,
    memoryBytes: 1,
    loadedAt: '2026-01-01T00:00:00.000Z',
    embedding: false,
  };

  it('the loaded context first, else the load plan’s (trained length capped by what fits), else a default', () => {
    expect(appSetups(model, loaded, on)).toMatchObject({ contextLength: 16384, contextFrom: 'loaded', running: true });
    expect(appSetups(model, undefined, on)).toMatchObject({ contextLength: 4096, contextFrom: 'plan' });
    const { plan: _plan, ...unplanned } = model;
    expect(appSetups(unplanned, undefined, on)).toMatchObject({ contextLength: 4096, contextFrom: 'default' });
  });

  it('the address the server will have while it is off; the model’s title as its name', () => {
    const r = appSetups(model, undefined, off);
    expect(r).toMatchObject({
      baseUrl: 'http://127.0.0.1:11500/v1',
      running: false,
      name: 'Tiny',
      keyEnv: 'HUBDESK_LOCAL_SERVER_KEY',
    });
    expect(r.setups.every((s) => s.content.includes(model.id))).toBe(true);
  });
});
