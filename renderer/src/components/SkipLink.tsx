import type { ReactNode } from 'react';

/**
 * A link, hidden until it has the focus, that moves the focus to a part of the page: to `prefer` inside it when that
 * is there (e.g. the first Copy of "Use this model"), else to the part itself. The page's routes live in the hash,
 * so it moves the focus itself instead of following `#target`.
 */
export function SkipLink({
  target,
  prefer,
  testid,
  children,
}: {
  target: string;
  prefer?: string;
  testid?: string;
  children: ReactNode;
}) {
  return (
    <a
      className="skip-link"
      href={`#${target}`}
      data-testid={testid}
      onClick={(e) => {
        e.preventDefault();
        const part = document.getElementById(target);
        if (!part) return;
        const el = (prefer ? part.querySelector<HTMLElement>(prefer) : null) ?? part;
        if (el === part && !part.hasAttribute('tabindex')) part.tabIndex = -1;
        el.focus();
        el.scrollIntoView({ block: 'nearest' });
      }}
    >
      {children}
    </a>
  );
}
