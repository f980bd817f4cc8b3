import type { KeyboardEvent, ReactNode } from 'react';

/** The id of tab `value` of a tab list, and of the panel it controls. */
export const tabId = (idPrefix: string, value: string) => `${idPrefix}-tab-${value}`;

/**
 * A WAI-ARIA tab list: one tab stop (roving tabindex on the selected tab), ←/→ move to the previous/next tab and
 * Home/End to the first/last, selecting it as focus moves (automatic activation); `aria-selected` marks the choice.
 */
export function TabList<T extends string>({
  label,
  items,
  value,
  onChange,
  idPrefix,
  panelId,
  className,
  tabClassName = '',
  testid,
  children,
}: {
  label: string;
  items: readonly T[];
  value: T | undefined;
  onChange(value: T): void;
  /** Prefix of each tab's id (`<prefix>-tab-<value>`), so a panel can be labelled by its tab. */
  idPrefix: string;
  panelId: string;
  className: string;
  tabClassName?: string;
  /** A tab's data-testid from its value. */
  testid?: (value: T) => string;
  /** A tab's content (its label by default). */
  children: (value: T) => ReactNode;
}) {
  const current = value !== undefined && items.includes(value) ? value : items[0];
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = items.indexOf(current);
    const to =
      e.key === 'ArrowRight'
        ? (at + 1) % items.length
        : e.key === 'ArrowLeft'
          ? (at - 1 + items.length) % items.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? items.length - 1
              : -1;
    if (to < 0 || items.length === 0) return;
    e.preventDefault();
    onChange(items[to]);
    document.getElementById(tabId(idPrefix, items[to]))?.focus();
  };
  return (
    <div className={className} role="tablist" aria-label={label} onKeyDown={onKeyDown}>
      {items.map((v) => (
        <button
          key={v}
          id={tabId(idPrefix, v)}
          type="button"
          role="tab"
          aria-selected={v === current}
          aria-controls={panelId}
          tabIndex={v === current ? 0 : -1}
          className={`${tabClassName}${v === current ? ' on' : ''}`.trim() || undefined}
          data-testid={testid?.(v)}
          onClick={() => onChange(v)}
        >
          {children(v)}
        </button>
      ))}
    </div>
  );
}
