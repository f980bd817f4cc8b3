import { describe, expect, it } from 'vitest';
import type { Turn } from '../../electron/main/services/chat/replies/turns';
import {
  doneReason,
  toLlamaFunctions,
  toLlamaHistory,
  toToolCall,
} from '../../electron/main/services/engines/local/history';

describe('the built-in engine: turns as node-llama-cpp chat history', () => {
  it('maps system, user and assistant turns, and ends with an empty model item to complete', () => {
    const turns: Turn[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: 'again' },
    ];
    expect(toLlamaHistory(turns)).toEqual([
      { type: 'system', text: 'Be brief.' },
      { type: 'user', text: 'hi' },
      { type: 'model', response: ['hello'] },
      { type: 'user', text: 'again' },
      { type: 'model', response: [] },
    ]);
  });

  it('puts tool results into the calls they answer (by id, else in order), and the model goes on from there', () => {
    const turns: Turn[] = [
      { role: 'user', content: 'sum and echo' },
      {
        role: 'assistant',
        content: 'Let me see.',
        toolCalls: [
          { id: 'call_1', name: 'add', arguments: { a: 1, b: 2 } },
          { id: 'call_2', name: 'echo', arguments: { text: 'x' } },
        ],
      },
      { role: 'tool', content: '"x"', toolName: 'echo', toolCallId: 'call_2' },
      { role: 'tool', content: '3', toolName: 'add' },
    ];
    const h = toLlamaHistory(turns);
    expect(h).toHaveLength(2);
    expect(h[1]).toEqual({
      type: 'model',
      response: [
        'Let me see.',
        { type: 'functionCall', name: 'add', params: { a: 1, b: 2 }, result: 3 },
        { type: 'functionCall', name: 'echo', params: { text: 'x' }, result: 'x' },
      ],
    });
  });

  it('keeps a result that is not JSON as text', () => {
    const h = toLlamaHistory([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'web_fetch', arguments: {} }] },
      { role: 'tool', content: 'plain <b>page</b>', toolCallId: 'c' },
    ]);
    expect(h.at(-1)).toEqual({
      type: 'model',
      response: [{ type: 'functionCall', name: 'web_fetch', params: {}, result: 'plain <b>page</b>' }],
    });
  });

  it('offers OpenAI function tools as functions, and turns calls back into tool calls', () => {
    const fns = toLlamaFunctions([
      {
        type: 'function',
        function: {
          name: 'add',
          description: 'Adds',
          parameters: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] },
        },
      },
      { type: 'function', function: { name: 'now', parameters: { type: 'object', properties: {} } } },
    ]);
    expect(fns).toEqual({
      add: { description: 'Adds', params: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] } },
      now: {},
    });
    expect(toToolCall({ functionName: 'add', params: { a: 1 } }, 'call_x')).toEqual({
      id: 'call_x',
      name: 'add',
      arguments: { a: 1 },
    });
    expect(toToolCall({ functionName: 'f', params: [1] }, 'call_y')).toEqual({
      id: 'call_y',
      name: 'f',
      arguments: {},
      rawArguments: '[1]',
    });
    expect(toToolCall({ functionName: 'now', params: undefined }, 'call_z')).toEqual({
      id: 'call_z',
      name: 'now',
      arguments: {},
    });
    expect([doneReason('maxTokens'), doneReason('functionCalls'), doneReason('eogToken')]).toEqual([
      'length',
      'tool_calls',
      'stop',
    ]);
  });
});
