/**
 * Runs `fn` once the next frame has been painted (a task queued from that frame's callbacks runs after its
 * rendering), or after 100 ms where no frame comes (a window not shown). Work chained this way lets every frame
 * paint in between, where a chain of bare timeouts lets the browser postpone painting. Returns a cancel function.
 */
export function afterPaint(fn: () => void): () => void {
  let done = false;
  const go = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    fn();
  };
  const timer = setTimeout(go, 100);
  const frame = requestAnimationFrame(() => setTimeout(go, 0));
  return () => {
    done = true;
    clearTimeout(timer);
    cancelAnimationFrame(frame);
  };
}

/**
 * Runs `fn` in the next frame once its layout is done (a new ResizeObserver always reports its first observation
 * then, before paint), so what `fn` reads forces no layout and what it writes is painted in that frame. For work a
 * render asks for (scrolling to a row just added) that would otherwise read layout React has just dirtied.
 * Returns a cancel function.
 */
export function afterLayout(fn: () => void): () => void {
  const ro = new ResizeObserver(() => {
    ro.disconnect();
    fn();
  });
  ro.observe(document.documentElement);
  return () => ro.disconnect();
}

/** Runs `fn` when the window is next idle (within 2 s), or in a task where there is no idle callback (jsdom). */
export function whenIdle(fn: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(fn, { timeout: 2000 });
  else setTimeout(fn, 0);
}
