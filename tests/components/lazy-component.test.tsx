// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyComponent } from '../../renderer/src/lib/lazy-component';

afterEach(cleanup);

/** A module whose load the test releases. */
function heldModule() {
  let release!: () => void;
  let fail!: (e: Error) => void;
  const load = vi.fn(
    () =>
      new Promise<{ Page: (p: { name: string }) => React.ReactElement }>((ok, ko) => {
        release = () => ok({ Page: ({ name }) => <p>page of {name}</p> });
        fail = ko;
      }),
  );
  return { load, release: () => release(), fail: (e: Error) => fail(e) };
}

/** Renders `node` in a Suspense boundary that counts how often its fallback rendered. */
function renderCounting(node: React.ReactNode) {
  let fallbacks = 0;
  const Fallback = () => {
    fallbacks++;
    return <p>Loading…</p>;
  };
  render(<Suspense fallback={<Fallback />}>{node}</Suspense>);
  return () => fallbacks;
}

describe('lazyComponent', () => {
  it('suspends like React.lazy while its code is not in, then renders', async () => {
    const mod = heldModule();
    const { Component } = lazyComponent(mod.load, (m) => m.Page);
    const fallbacks = renderCounting(<Component name="a" />);
    expect(screen.getByText('Loading…')).toBeTruthy();
    await act(async () => mod.release());
    expect(await screen.findByText('page of a')).toBeTruthy();
    expect(fallbacks()).toBeGreaterThan(0);
  });

  it('once preloaded, its first render is the component itself: no fallback, not even for a frame', async () => {
    const mod = heldModule();
    const { Component, preload } = lazyComponent(mod.load, (m) => m.Page);
    const loading = preload();
    mod.release();
    await loading;
    const fallbacks = renderCounting(<Component name="b" />);
    // Synchronously after render: React.lazy alone would show the fallback here and the page a task later.
    expect(screen.getByText('page of b')).toBeTruthy();
    expect(fallbacks()).toBe(0);
    expect(mod.load).toHaveBeenCalledTimes(1);
  });

  it('preload loads once; a failed load is tried again by the next preload', async () => {
    const mod = heldModule();
    const { preload } = lazyComponent(mod.load, (m) => m.Page);
    const first = preload();
    expect(preload()).toBe(first);
    mod.fail(new Error('chunk failed'));
    await expect(first).rejects.toThrow('chunk failed');
    const second = preload();
    expect(mod.load).toHaveBeenCalledTimes(2);
    mod.release();
    await expect(second).resolves.toHaveProperty('Page');
  });
});
