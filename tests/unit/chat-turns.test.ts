import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '@shared/contract/chat-message';
import { fitTurns, toTurns, type Turn } from '../../electron/main/services/chat/replies/turns';

let n = 0;
const m = (role: ChatMessage['role'], content: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  id: `m_${n++}`,
  role,
  content,
  status: 'complete',
  createdAt: '2026-01-01T00:00:00.000Z',
  ...extra,
});
const u = (c: string, x?: Partial<ChatMessage>) => m('user', c, x);
const a = (c: string, x?: Partial<ChatMessage>) => m('assistant', c, x);
const call = { name: 'web_search', arguments: { query: 'q' } };
const short = (turns: Turn[]) =>
  turns.map((t) => `${t.role[0]}:${t.content}${t.toolCalls ? `+${t.toolCalls.length}call` : ''}`);

/**
 * Strict chat templates: optional system first, then a user turn; user and assistant alternate; tool results
 * follow the assistant turn that called the tools, and after them comes the answer (or the user).
 */
function alternates(turns: Turn[]): boolean {
  const rest = turns[0]?.role === 'system' ? turns.slice(1) : turns;
  return rest.every((t, i) => {
    const prev = rest[i - 1];
    const next = rest[i + 1];
    if (t.toolCalls?.length && next?.role !== 'tool') return false;
    if (t.role === 'system') return false;
    if (t.role === 'tool') return !!prev && (prev.role === 'tool' || !!prev.toolCalls?.length);
    if (t.role === 'user') return !prev || prev.role === 'tool' || (prev.role === 'assistant' && !prev.toolCalls);
    return !!prev && (prev.role === 'user' || prev.role === 'tool');
  });
}

describe('toTurns: what the model receives', () => {
  const cases: { name: string; system?: string; history: ChatMessage[]; tools?: boolean; want: string[] }[] = [
    {
      name: 'plain alternation, system first',
      system: 'S',
      history: [u('q1'), a('a1'), u('q2')],
      want: ['s:S', 'u:q1', 'a:a1', 'u:q2'],
    },
    {
      name: 'a failed reply with no text is left out and the two user turns merge',
      history: [u('q1'), a('', { status: 'error', error: { code: 'upstream', message: 'x' } }), u('q1 again')],
      want: ['u:q1\n\nq1 again'],
    },
    {
      name: 'a failed reply that has text is kept (the user saw it)',
      history: [u('q1'), a('partial', { status: 'error' }), u('go on')],
      want: ['u:q1', 'a:partial', 'u:go on'],
    },
    {
      name: 'interrupted and stopped replies with no text are left out',
      history: [u('q1'), a('', { status: 'interrupted' }), u('q2'), a('', { status: 'stopped' }), u('q3')],
      want: ['u:q1\n\nq2\n\nq3'],
    },
    {
      name: 'tool turns stay where they belong',
      history: [u('q'), a('', { toolCalls: [call] }), m('tool', 'results', { toolName: 'web_search' }), a('answer')],
      want: ['u:q', 'a:+1call', 't:results', 'a:answer'],
    },
    {
      name: 'the router (tools: false) gets no tool turns',
      tools: false,
      history: [u('q'), a('', { toolCalls: [call] }), m('tool', 'results'), a('answer')],
      want: ['u:q', 'a:answer'],
    },
    {
      name: 'a stray tool result (no call before it) is left out',
      history: [u('q'), m('tool', 'orphan'), a('answer')],
      want: ['u:q', 'a:answer'],
    },
    {
      name: 'a tool call whose results never came loses its calls (the turn, if it had no text)',
      history: [u('q'), a('', { toolCalls: [call] }), u('q2'), a('let me look', { toolCalls: [call] })],
      want: ['u:q\n\nq2', 'a:let me look'],
    },
    { name: 'a leading assistant turn is dropped', history: [a('hello!'), u('hi')], want: ['u:hi'] },
    {
      name: 'the reply being written is not context',
      history: [u('q'), a('', { status: 'streaming' })],
      want: ['u:q'],
    },
    {
      name: 'images of merged user turns are all kept',
      history: [u('one', { images: ['aQ=='] }), u('two', { images: ['Ag=='] })],
      want: ['u:one\n\ntwo'],
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const turns = toTurns(c.system ?? '', c.history, { tools: c.tools });
      expect(short(turns)).toEqual(c.want);
      expect(alternates(turns)).toBe(true);
    });

  it("the documents' context joins the system prompt in one system message (strict templates refuse two)", () => {
    const turns = toTurns('S', [u('q')], { context: 'passages' });
    expect(short(turns)).toEqual(['s:S\n\npassages', 'u:q']);
    expect(alternates(turns)).toBe(true);
    expect(short(toTurns('', [u('q')], { context: 'passages' }))).toEqual(['s:passages', 'u:q']);
  });

  it('merged images travel with the merged turn', () => {
    expect(toTurns('', [u('one', { images: ['aQ=='] }), u('two', { images: ['Ag=='] })])[0].images).toEqual([
      'aQ==',
      'Ag==',
    ]);
  });

  it('any mix of messages comes out alternating (random histories)', () => {
    const roles: ChatMessage['role'][] = ['user', 'assistant', 'tool'];
    const statuses: ChatMessage['status'][] = ['complete', 'error', 'stopped', 'interrupted'];
    let seed = 7;
    const rnd = (k: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % k);
    for (let run = 0; run < 500; run++) {
      const history = Array.from({ length: rnd(12) }, () => {
        const role = roles[rnd(3)];
        return m(role, rnd(3) ? `t${rnd(9)}` : '', {
          status: statuses[rnd(4)],
          ...(role === 'assistant' && rnd(3) === 0 ? { toolCalls: [call] } : {}),
        });
      });
      const turns = toTurns(rnd(2) ? 'S' : '', history);
      expect(alternates(turns), JSON.stringify(history)).toBe(true);
      expect(turns.at(-1)?.toolCalls).toBeUndefined();
    }
  });

  it('fitTurns keeps the system prompt and starts the window at a user turn', () => {
    const turns = toTurns('S', [
      u('q1'),
      a('a1'),
      u('q2'),
      a('', { toolCalls: [call] }),
      m('tool', 'r'),
      a('a2'),
      u('q3'),
    ]);
    expect(short(fitTurns(turns, 4))).toEqual(['s:S', 'u:q3']);
    expect(short(fitTurns(turns, 6))).toEqual(['s:S', 'u:q2', 'a:+1call', 't:r', 'a:a2', 'u:q3']);
    expect(fitTurns(turns, 50)).toEqual(turns);
  });
});
