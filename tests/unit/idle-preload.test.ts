// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';

/** The module afresh (its loaders are module state), with an idle wait the test releases by hand. */
async function fresh() {
  vi.resetModules();
  const mod = await import('../../renderer/src/lib/idle-preload');
  const idle: (() => void)[] = [];
  const wait = (run: () => void) => {
    idle.push(run);
    return () => idle.splice(idle.indexOf(run), 1);
  };
  return { ...mod, idle, wait };
}

/** A loader that records its start and resolves (or fails) when told. */
function loader(name: string, log: string[]) {
  let settle!: (ok: boolean) => void;
  const load = () => {
    log.push(name);
    return new Promise<void>((ok, fail) => (settle = (good) => (good ? ok() : fail(new Error(name)))));
  };
  return { load, done: (good = true) => settle(good) };
}

afterEach(() => vi.useRealTimers());

describe('code preloaded when the app is idle', () => {
  it('waits for the start-up delay, then runs one loader per idle period, each after the previous one has finished', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { preloadWhenIdle, startIdlePreload, idle, wait } = await fresh();
    const log: string[] = [];
    const a = loader('model', log);
    const b = loader('chat', log);
    preloadWhenIdle(a.load);
    preloadWhenIdle(b.load);
    startIdlePreload(2000, wait);
    vi.advanceTimersByTime(1999);
    expect(idle).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(idle).toHaveLength(1);
    expect(log).toEqual([]); // not before the browser says it is idle
    idle.shift()!();
    expect(log).toEqual(['model']);
    await vi.advanceTimersByTimeAsync(0);
    expect(idle).toHaveLength(0); // the next one waits for this one to finish
    a.done();
    await vi.advanceTimersByTimeAsync(0);
    expect(idle).toHaveLength(1);
    idle.shift()!();
    expect(log).toEqual(['model', 'chat']);
  });

  it('input or a change of address defers it until QUIET_MS have passed without any: never in a keystroke', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { preloadWhenIdle, startIdlePreload, idle, wait } = await fresh();
    const QUIET_MS = 1000; // lib/idle-preload.ts
    const log: string[] = [];
    preloadWhenIdle(loader('chat', log).load);
    startIdlePreload(2000, wait);
    vi.advanceTimersByTime(1500);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' }));
    vi.advanceTimersByTime(500);
    expect(idle).toHaveLength(0); // 500 ms after a key: not yet
    vi.advanceTimersByTime(QUIET_MS - 500);
    expect(idle).toHaveLength(1);
    // Idle comes, but the user navigated meanwhile: wait again.
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    idle.shift()!();
    expect(log).toEqual([]);
    vi.advanceTimersByTime(QUIET_MS);
    idle.shift()!();
    expect(log).toEqual(['chat']);
  });

  it('a loader that fails does not stop the others (the page shows its own error when visited)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { preloadWhenIdle, startIdlePreload, idle, wait } = await fresh();
    const log: string[] = [];
    const a = loader('tools', log);
    const b = loader('settings', log);
    preloadWhenIdle(a.load);
    preloadWhenIdle(b.load);
    startIdlePreload(2000, wait);
    await vi.advanceTimersByTimeAsync(2000);
    idle.shift()!();
    a.done(false);
    await vi.advanceTimersByTimeAsync(2000);
    idle.shift()!();
    expect(log).toEqual(['tools', 'settings']);
  });

  it('stopping (the app unmounted) cancels what has not started, before or during the waits', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { preloadWhenIdle, startIdlePreload, idle, wait } = await fresh();
    const log: string[] = [];
    preloadWhenIdle(loader('chat', log).load);
    const stopEarly = startIdlePreload(2000, wait);
    stopEarly();
    await vi.advanceTimersByTimeAsync(2000);
    expect(idle).toHaveLength(0);

    const stopLater = startIdlePreload(2000, wait);
    await vi.advanceTimersByTimeAsync(2000);
    expect(idle).toHaveLength(1);
    stopLater();
    expect(idle).toHaveLength(0);
    expect(log).toEqual([]);
  });
});
