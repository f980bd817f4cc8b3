// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Snippet } from '@shared/contract/snippets';
import { usePanePicks } from '../../renderer/src/features/snippets/usePanePicks';

const sn = (client: string, content: string): Snippet => ({ language: 'sh', client, content }) as Snippet;
const panes = (id: string) => [
  sn('llama.cpp', `llama-server -hf ${id}`),
  sn('lemonade', `lemonade pull ${id}`),
  sn('lemonade', `lemonade run ${id}`),
  sn('lemonade', 'lemonade list'),
];

describe('usePanePicks', () => {
  it('a pick made on one model does not choose the next model’s pane, from its first render', () => {
    const { result, rerender } = renderHook(({ id }) => usePanePicks('local-app', panes(id), id), {
      initialProps: { id: 'a/one' },
    });
    act(() => result.current.pickClient('lemonade'));
    act(() => result.current.pickVariant(2));
    expect(result.current.current?.content).toBe('lemonade list');
    const seen: (string | undefined)[] = [];
    const next = renderHook(
      ({ id }) => {
        const p = usePanePicks('local-app', panes(id), id);
        seen.push(p.current?.content);
        return p;
      },
      { initialProps: { id: 'a/one' } },
    );
    act(() => next.result.current.pickClient('lemonade'));
    act(() => next.result.current.pickVariant(2));
    seen.length = 0;
    next.rerender({ id: 'b/two' });
    // Every render of the new model (React renders again at once after the reset) shows its first pane.
    expect([...new Set(seen)]).toEqual(['llama-server -hf b/two']);
    rerender({ id: 'b/two' });
    expect(result.current.current?.content).toBe('llama-server -hf b/two');
  });
});
