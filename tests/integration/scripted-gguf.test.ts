// The scripted GGUF fixture, run by the real llama.cpp (node-llama-cpp): greedy decoding follows the script, a
// function call comes back as a function call, and a thought comes back as a thought segment.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatHistoryItem, Llama, LlamaChatResponseChunk } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionCallGguf, scriptedGguf, thinkingGguf } from '../fixtures/scripted-gguf';

let dir: string;
let llama: Llama;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'scripted-gguf-'));
  const { getLlama } = await import('node-llama-cpp');
  llama = await getLlama({ gpu: false });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Loads `bytes`, answers `history` with LlamaChat (greedy) and returns the response with the streamed chunks. */
async function respond(
  file: string,
  bytes: Uint8Array,
  history: ChatHistoryItem[],
  options: Parameters<import('node-llama-cpp').LlamaChat['generateResponse']>[1] = {},
) {
  const { LlamaChat } = await import('node-llama-cpp');
  const path = join(dir, file);
  writeFileSync(path, bytes);
  const model = await llama.loadModel({ modelPath: path });
  const context = await model.createContext({ contextSize: 512, threads: 1 });
  try {
    const chat = new LlamaChat({ contextSequence: context.getSequence() });
    const chunks: LlamaChatResponseChunk[] = [];
    let text = '';
    const res = await chat.generateResponse(history, {
      maxTokens: 40,
      ...options,
      onTextChunk: (chunk) => (text += chunk),
      onResponseChunk: (chunk) => chunks.push(chunk),
    });
    return { res, text, chunks, wrapper: chat.chatWrapper.wrapperName };
  } finally {
    await context.dispose();
    await model.dispose();
  }
}

const user = (text: string): ChatHistoryItem[] => [
  { type: 'system', text: 'Be brief.' },
  { type: 'user', text },
];

const weather = {
  get_weather: {
    description: 'Weather of a city',
    params: { type: 'object', properties: { city: { type: 'string' } } },
  },
} as const;

describe('scriptedGguf', () => {
  it('streams its script, then stops at </s>', async () => {
    const { res, text, wrapper } = await respond(
      'plain.gguf',
      scriptedGguf({ script: ['▁Hello', '▁world', '.'] }),
      user('Say hello'),
    );
    expect(wrapper).toBe('ChatML');
    expect(text.trim()).toBe('Hello world.');
    expect(res.metadata.stopReason).toBe('eogToken');
  });

  it('is byte-identical for the same script, under 1 MB, and rejects a piece with two successors', () => {
    const [a, b] = [scriptedGguf({ script: ['▁a', '▁b'] }), scriptedGguf({ script: ['▁a', '▁b'] })];
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    for (const bytes of [a, functionCallGguf(), thinkingGguf()]) expect(bytes.length).toBeLessThan(1_000_000);
    expect(Buffer.from(a).equals(Buffer.from(scriptedGguf({ script: ['▁a', '▁c'] })))).toBe(false);
    expect(() => scriptedGguf({ script: ['▁a', '▁b', '▁a', '▁c'] })).toThrow(/two successors/);
  });
});

describe('functionCallGguf', () => {
  it('makes LlamaChat return a get_weather call with {city: "Paris"} when no handler is given', async () => {
    const { res, text } = await respond('call.gguf', functionCallGguf(), user('Weather in Paris?'), {
      functions: weather,
    });
    expect(res.metadata.stopReason).toBe('functionCalls');
    expect(res.functionCalls).toHaveLength(1);
    expect(res.functionCalls?.[0].functionName).toBe('get_weather');
    expect(res.functionCalls?.[0].params).toEqual({ city: 'Paris' });
    expect(text).toBe('');
  });

  it('calls another name with several params', async () => {
    const functions = {
      convert: {
        description: 'Convert an amount',
        params: {
          type: 'object',
          properties: { amount: { type: 'number' }, unit: { type: 'string' }, exact: { type: 'boolean' } },
        },
      },
    } as const;
    const bytes = functionCallGguf({ name: 'convert', params: { amount: 12, unit: 'kg', exact: true } });
    const { res } = await respond('convert.gguf', bytes, user('Convert 12 kg'), { functions });
    expect(res.functionCalls?.map((c) => [c.functionName, c.params])).toEqual([
      ['convert', { amount: 12, unit: 'kg', exact: true }],
    ]);
  });

  it('answers after the function result, so a LlamaChatSession tool loop ends', async () => {
    const { LlamaChatSession, defineChatSessionFunction } = await import('node-llama-cpp');
    const path = join(dir, 'loop.gguf');
    writeFileSync(path, functionCallGguf({ answer: ['▁Sunny', '▁today', '.'] }));
    const model = await llama.loadModel({ modelPath: path });
    const context = await model.createContext({ contextSize: 512, threads: 1 });
    try {
      const session = new LlamaChatSession({ contextSequence: context.getSequence(), systemPrompt: 'Be brief.' });
      const calls: unknown[] = [];
      const get_weather = defineChatSessionFunction({
        ...weather.get_weather,
        handler: (params) => (calls.push(params), 'sunny'),
      });
      const text = await session.prompt('Weather in Paris?', { maxTokens: 60, functions: { get_weather } });
      expect(calls).toEqual([{ city: 'Paris' }]);
      expect(text.trim()).toBe('Sunny today.');
      expect(session.getChatHistory().at(-1)).toMatchObject({
        type: 'model',
        response: [{ type: 'functionCall', name: 'get_weather', result: 'sunny' }, 'Sunny today.'],
      });
    } finally {
      await context.dispose();
      await model.dispose();
    }
  });

  it('answers in plain text when no functions are offered', async () => {
    const { res, text } = await respond('call-plain.gguf', functionCallGguf(), user('Weather in Paris?'));
    expect(res.functionCalls ?? []).toHaveLength(0);
    expect(text).toBe('||call: get_weather');
  });
});

describe('thinkingGguf', () => {
  it('streams a thought segment through onResponseChunk, then the text', async () => {
    const { res, text, chunks, wrapper } = await respond('think.gguf', thinkingGguf(), user('Say hello'));
    expect(wrapper).toBe('JinjaTemplate');
    const thought = chunks.filter((c) => c.type === 'segment' && c.segmentType === 'thought');
    expect(thought.map((c) => c.text).join('')).toBe('Let me think');
    expect(thought.some((c) => c.type === 'segment' && c.segmentEndTime != null)).toBe(true);
    // The text comes after the thought ends, and onTextChunk sees only the text.
    const lastThought = chunks.lastIndexOf(thought.at(-1)!);
    expect(
      chunks
        .slice(lastThought + 1)
        .map((c) => (c.type === undefined ? c.text : ''))
        .join(''),
    ).toBe(' Hello.');
    expect(text.trim()).toBe('Hello.');
    expect(res.response.trim()).toBe('Hello.');
    expect(res.fullResponse[0]).toMatchObject({ type: 'segment', segmentType: 'thought', text: 'Let me think' });
  });
});
