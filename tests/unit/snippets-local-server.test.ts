import { describe, expect, it } from 'vitest';
import {
  formatBody,
  renderLocalServerSnippets,
  renderTemplate,
  templateNames,
} from '../../electron/main/services/snippets/local-server';

const base = { model: 'hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M', host: 'http://127.0.0.1:11434/' };

describe('local-server templates (Ollama)', () => {
  it('writes the model options and think into every client, as that client spells them', () => {
    const options = { temperature: 0.3, num_predict: 256, num_ctx: 8192, stop: ['<|eot_id|>'] };
    for (const streaming of [false, true]) {
      const out = renderLocalServerSnippets({ ...base, streaming, options, think: false });
      const [pyOllama, pyOpenai, jsOllama, jsOpenai, curlChat, curlGen] = out.map((s) => s.content);
      expect(pyOllama).toContain('    options={\n        "temperature": 0.3,');
      expect(pyOllama).toContain('    think=False,\n');
      expect(jsOllama).toContain('\toptions: {\n\t\t"temperature": 0.3,');
      expect(jsOllama).toContain('\tthink: false,\n');
      // /v1 takes OpenAI's names; what it cannot take is said in a comment, never silently dropped.
      expect(pyOpenai).toContain('    temperature=0.3,\n    max_tokens=256,\n');
      expect(pyOpenai).toContain('    # num_ctx is not available through /v1');
      expect(jsOpenai).toContain('\tmax_tokens: 256,\n');
      expect(jsOpenai).toContain('\t// num_ctx is not available through /v1');
      for (const curl of [curlChat, curlGen])
        expect(JSON.parse(/-d '([\s\S]*)'$/.exec(curl)![1])).toMatchObject({
          options,
          think: false,
          stream: streaming,
        });
      for (const s of out) expect(s.content).not.toMatch(/\{\{|\{%|\n\n\n/);
    }
  });

  it('adds nothing when there are no options', () => {
    const plain = renderLocalServerSnippets({ ...base, streaming: false });
    for (const s of plain) expect(s.content).not.toMatch(/options|think|temperature/);
  });

  it('bundles one template per language/client (the local-server snippets, repo snippets and app setups)', () => {
    expect(templateNames()).toEqual([
      'js/ai-sdk/setup',
      'js/gradio_client/predict',
      'js/ollama/chat',
      'js/openai/chat',
      'js/openai/endpoint',
      'js/openai/setup',
      'python/datasets/load',
      'python/gradio_client/predict',
      'python/huggingface_hub/download',
      'python/langchain/setup',
      'python/ollama/chat',
      'python/openai/chat',
      'python/openai/endpoint',
      'python/openai/setup',
      'python/pandas/read',
      'sh/claude-code/setup',
      'sh/curl/chat',
      'sh/curl/endpoint',
      'sh/curl/generate',
      'sh/curl/setup',
      'sh/hf/download',
      'sh/open-webui/setup',
      'text/cline/setup',
      'yaml/continue/setup',
    ]);
  });

  for (const streaming of [false, true]) {
    it(`renders every language/client ${streaming ? 'with' : 'without'} streaming`, () => {
      const out = renderLocalServerSnippets({ ...base, streaming });
      expect(out.map((s) => `${s.language}/${s.client}`)).toEqual([
        'python/ollama',
        'python/openai',
        'js/ollama',
        'js/openai',
        'sh/curl',
        'sh/curl (generate)',
      ]);
      for (const s of out) {
        expect(s.content).toContain(base.model);
        expect(s.content).not.toMatch(/\{\{|\{%|\n\n\n/);
        expect(s.content).not.toContain('11434//');
      }
      const [pyOllama, pyOpenai, jsOllama, jsOpenai, curlChat, curlGen] = out.map((s) => s.content);
      expect(pyOllama).toContain('client = Client(host="http://127.0.0.1:11434")');
      expect(pyOllama).toContain('messages = [\n    {\n        "role": "user",');
      expect(pyOpenai).toContain('base_url="http://127.0.0.1:11434/v1"');
      expect(jsOpenai).toContain('baseURL: "http://127.0.0.1:11434/v1"');
      expect(jsOllama).toContain('new Ollama({ host: "http://127.0.0.1:11434" })');
      expect(curlChat).toMatch(/^curl http:\/\/127\.0\.0\.1:11434\/api\/chat \\\n {4}-H/);
      expect(curlGen).toContain('/api/generate');
      expect(curlGen).toContain('"prompt": "What is the capital of France?"');
      // The curl body is valid JSON once the shell has read it.
      const body = JSON.parse(/-d '([\s\S]*)'$/.exec(curlChat)![1]);
      expect(body).toEqual({
        model: base.model,
        messages: [{ role: 'user', content: 'What is the capital of France?' }],
        stream: streaming,
      });
      if (streaming) {
        expect(pyOllama).toContain('stream=True');
        expect(pyOpenai).toContain('stream=True');
        expect(jsOllama).toContain('for await (const part of stream)');
        expect(jsOpenai).toContain('stream: true');
      } else {
        expect(pyOllama).not.toContain('stream=True');
        expect(pyOllama).toContain('print(response["message"]["content"])');
        expect(jsOpenai).not.toContain('stream: true');
      }
    });
  }

  it('writes the user messages into each language, quoting safely', () => {
    const messages = [{ role: 'user', content: 'It\'s "true": yes' }];
    const out = renderLocalServerSnippets({ ...base, streaming: false, messages });
    expect(out[0].content).toContain('"content": "It\'s \\"true\\": yes"');
    const curl = out.find((s) => s.client === 'curl')!.content;
    expect(curl).toContain("It'\\''s");
  });

  it('a missing template and an unknown format fail with their texts', () => {
    expect(() => renderTemplate('python', 'ollama', 'embed', {})).toThrow('Template not found: python/ollama/embed');
    expect(() => renderTemplate('rust', 'reqwest', 'chat', {})).toThrow('Template not found: rust/reqwest/chat');
    expect(() => formatBody({ a: 1 }, 'yaml')).toThrow('Unsupported format');
    expect(formatBody({ a: true, b: null }, 'python')).toBe('{\n    "a": True,\n    "b": None\n}');
    expect(formatBody({ a: 1 }, 'ts')).toBe('{\n\t"a": 1\n}');
  });
});
