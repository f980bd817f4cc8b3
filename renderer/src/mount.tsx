import { StrictMode, useLayoutEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';

export { startUp } from './app/startup';

/** After the first commit: the focus back on the link of that address, if the page shows one. */
function FocusLink({ root, href }: { root: HTMLElement; href: string }) {
  useLayoutEffect(() => {
    if (document.activeElement === document.body)
      root.querySelector<HTMLElement>(`a[href="${CSS.escape(href)}"]`)?.focus();
  }, [root, href]);
  return null;
}

/**
 * React DOM and the app: loaded by main.tsx, after the first paint where index.html's landing is on screen.
 * `focusHref`: the landing's link that had the focus when the app took over.
 */
export function mount(container: HTMLElement, focusHref: string | null = null): void {
  createRoot(container).render(
    <StrictMode>
      <App />
      {focusHref !== null && <FocusLink root={container} href={focusHref} />}
    </StrictMode>,
  );
}
