/**
 * Code that loads once the app has been idle for a while after start-up: the pages a person goes to next (a model,
 * Chat, Local models…), so a first visit does not wait for its chunk to be fetched and evaluated. One loader per idle
 * period, in the order they were registered, each after the previous one has finished, and only when nothing has
 * happened for QUIET_MS (no key, pointer or wheel input, no change of address): evaluating a page's chunk takes tens
 * of ms, which must not land in a keystroke or a page being opened. A page visited sooner loads its own code as
 * before (the loaders are the pages' own preload, so nothing loads twice). A loader that fails is left to the page's
 * own render, which tries again and shows the error.
 */
const loaders: (() => Promise<unknown>)[] = [];

/** How long after start-up (the app's first render) the first loader may run: the window's own start-up work first. */
const IDLE_PRELOAD_DELAY_MS = 2000;

/** Adds a loader to run when the app is idle (see above). */
export function preloadWhenIdle(load: () => Promise<unknown>): void {
  loaders.push(load);
}

/** How long without input or navigation counts as idle. */
const QUIET_MS = 1000;

let lastActivity = 0;
if (typeof window !== 'undefined')
  for (const type of ['keydown', 'pointerdown', 'wheel', 'hashchange'])
    window.addEventListener(type, () => (lastActivity = performance.now()), { capture: true, passive: true });

type IdleWait = (run: () => void) => () => void;

/** The browser's next idle period (no deadline: a busy window never preloads), or a timer where there is none (jsdom). */
const nextIdle: IdleWait = (run) => {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(run);
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(run, 50);
  return () => clearTimeout(id);
};

/** Starts running the loaders `delayMs` from now; returns a stop (the app unmounted). */
export function startIdlePreload(delayMs = IDLE_PRELOAD_DELAY_MS, idle: IdleWait = nextIdle): () => void {
  let stopped = false;
  const queue = [...loaders];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cancelIdle: () => void = () => {};
  const after = (ms: number) => (timer = setTimeout(step, ms));
  function step() {
    const load = queue[0];
    if (stopped || !load) return;
    const busy = QUIET_MS - (performance.now() - lastActivity);
    if (busy > 0) return void after(busy);
    cancelIdle = idle(() => {
      if (stopped) return;
      if (performance.now() - lastActivity < QUIET_MS) return step();
      queue.shift();
      void load()
        .catch(() => undefined)
        .then(step);
    });
  }
  after(delayMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
    cancelIdle();
  };
}
