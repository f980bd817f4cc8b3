import type { KeyboardEvent, ReactNode } from 'react';

/**
 * A WAI-ARIA radio group drawn as a segmented control: one tab stop (the checked choice, else the first), arrow keys
 * move to the previous/next choice and check it, wrapping around.
 */
export function RadioGroup<T extends string>({
  label,
  items,
  value,
  onChange,
  testid,
  className = 'segmented',
  children,
}: {
  label: string;
  items: readonly T[];
  value: T | undefined;
  onChange(value: T): void;
  testid?: (value: T) => string | undefined;
  className?: string;
  /** A choice's content. */
  children: (value: T) => ReactNode;
}) {
  const stop = value !== undefined && items.includes(value) ? value : items[0];
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step =
      e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 0;
    if (!step || items.length === 0) return;
    e.preventDefault();
    const at = items.indexOf(document.activeElement?.getAttribute('data-value') as T);
    const to = items[((at < 0 ? items.indexOf(stop) : at) + step + items.length) % items.length];
    onChange(to);
    e.currentTarget.querySelector<HTMLElement>(`[data-value="${CSS.escape(to)}"]`)?.focus();
  };
  return (
    <div className={className} role="radiogroup" aria-label={label} onKeyDown={onKeyDown}>
      {items.map((v) => (
        <button
          key={v}
          type="button"
          role="radio"
          aria-checked={v === value}
          tabIndex={v === stop ? 0 : -1}
          className={v === value ? 'on' : ''}
          data-value={v}
          data-testid={testid?.(v)}
          onClick={() => onChange(v)}
        >
          {children(v)}
        </button>
      ))}
    </div>
  );
}
