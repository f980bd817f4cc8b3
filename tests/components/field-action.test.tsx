// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useFieldAction } from '../../renderer/src/hooks/field-action';

describe('useFieldAction: a text field an action takes', () => {
  it('sends the text trimmed; a success clears the field and tells onDone, a failure keeps what was typed', async () => {
    const run = vi.fn(async (text: string) => (text === 'ok' ? `made ${text}` : undefined));
    const onDone = vi.fn();
    const { result } = renderHook(() => useFieldAction(run, { onDone }));
    act(() => result.current.setValue('  nope  '));
    await act(async () => result.current.submit());
    expect(run).toHaveBeenLastCalledWith('nope');
    expect(result.current.value).toBe('  nope  '); // refused: nothing lost
    expect(onDone).not.toHaveBeenCalled();
    act(() => result.current.setValue(' ok'));
    await act(async () => result.current.submit());
    expect(result.current.value).toBe('');
    expect(onDone).toHaveBeenCalledWith('made ok');
  });

  it('never sends an empty or invalid text, and says it is not ready', async () => {
    const run = vi.fn(async () => true);
    const { result } = renderHook(() => useFieldAction(run, { valid: (t) => t.length >= 4 }));
    expect(result.current.ready).toBe(false);
    act(() => result.current.setValue('   '));
    await act(async () => result.current.submit());
    act(() => result.current.setValue('abc'));
    expect(result.current.ready).toBe(false);
    await act(async () => result.current.submit());
    expect(run).not.toHaveBeenCalled();
    act(() => result.current.setValue('abcd'));
    expect(result.current.ready).toBe(true);
    const preventDefault = vi.fn();
    await act(async () => result.current.onSubmit({ preventDefault } as unknown as React.FormEvent));
    expect(preventDefault).toHaveBeenCalled();
    expect(run).toHaveBeenCalledWith('abcd');
  });
});
