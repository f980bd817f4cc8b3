import { useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from 'react';

export interface MenuItem {
  label: string;
  /** Its tooltip: what the item does, in a few words. */
  title?: string;
  disabled?: boolean;
  run(): void;
}

/**
 * A menu button (the ARIA pattern): Enter, Space or ↓ opens it on the first item, ↑ on the last; ↓/↑/Home/End move,
 * Enter runs an item, Escape or Tab closes it, and the focus goes back to the button. The chat header folds its
 * secondary actions here so that it keeps two rows on a small window.
 */
export function ThreadMenu({
  label,
  items,
  buttonRef,
}: {
  label: string;
  items: MenuItem[];
  /** The menu's button, for a caller to give the focus back to (e.g. when the pane an item opened closes). */
  buttonRef?: RefObject<HTMLButtonElement | null>;
}) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const own = useRef<HTMLButtonElement>(null);
  const button = buttonRef ?? own;
  const menu = useRef<HTMLDivElement>(null);
  const id = useId();
  const enabled = items.map((it, i) => (it.disabled ? -1 : i)).filter((i) => i >= 0);

  useEffect(() => {
    if (open) menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]')[active]?.focus();
  }, [open, active]);
  useEffect(() => {
    if (!open) return;
    const away = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!menu.current?.contains(t) && !button.current?.contains(t)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open, button]);

  const show = (at: 'first' | 'last') => {
    if (!enabled.length) return;
    setActive(at === 'first' ? enabled[0] : enabled[enabled.length - 1]);
    setOpen(true);
  };
  const close = (refocus = true) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const move = (step: number) => {
    const i = enabled.indexOf(active);
    setActive(enabled[(i + step + enabled.length) % enabled.length]);
  };

  const onMenuKey = (e: KeyboardEvent) => {
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(1),
      ArrowUp: () => move(-1),
      Home: () => setActive(enabled[0]),
      End: () => setActive(enabled[enabled.length - 1]),
      Escape: () => close(),
    };
    if (e.key === 'Tab') return close(false);
    const k = keys[e.key];
    if (!k) return;
    e.preventDefault();
    e.stopPropagation();
    k();
  };

  return (
    <span className="thread-menu">
      <button
        ref={button}
        className="btn btn-ghost btn-sm"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => (open ? setOpen(false) : show('first'))}
        onKeyDown={(e) => {
          if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
          e.preventDefault();
          show(e.key === 'ArrowDown' ? 'first' : 'last');
        }}
      >
        {label} <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div ref={menu} id={id} role="menu" aria-label={label} className="thread-menu-list" onKeyDown={onMenuKey}>
          {items.map((it, i) => (
            <button
              key={it.label}
              role="menuitem"
              tabIndex={-1}
              title={it.title}
              disabled={it.disabled}
              onClick={() => {
                close();
                it.run();
              }}
              onPointerEnter={() => !it.disabled && setActive(i)}
            >
              {it.label}
            </button>
          ))}
        </div>
      )}
    </span>
  );
}
