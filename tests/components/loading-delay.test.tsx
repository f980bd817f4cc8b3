// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Loading } from '../../renderer/src/components/States';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('Loading', () => {
  it('says what is loading at once by default', () => {
    render(<Loading label="Loading models…" />);
    expect(screen.getByRole('status').textContent).toBe('Loading models…');
  });

  it('with a delay, says nothing for work that ends before it (no flash), then says it', () => {
    vi.useFakeTimers();
    render(<Loading label="Starting a new chat…" delayMs={250} />);
    expect(screen.getByRole('status').textContent).toBe('');
    act(() => void vi.advanceTimersByTime(249));
    expect(screen.getByRole('status').textContent).toBe('');
    act(() => void vi.advanceTimersByTime(1));
    expect(screen.getByRole('status').textContent).toBe('Starting a new chat…');
  });
});
