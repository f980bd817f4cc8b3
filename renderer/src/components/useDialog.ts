import { useEffect, useRef, type RefObject } from 'react';

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), ' +
  'textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

const tabbables = (root: HTMLElement) =>
  [...root.querySelectorAll<HTMLElement>(focusable)].filter((el) => el.getClientRects().length > 0);

/**
 * A modal dialog's keyboard contract (WAI-ARIA dialog pattern): focus moves in when it opens (to `initial`, else
 * the first field, else the first control), Tab and Shift+Tab cycle inside it, Escape closes it (only the dialog
 * that has the focus: a dialog over a drawer closes alone), and focus returns to the control that opened it.
 */
export function useDialog(ref: RefObject<HTMLElement | null>, onClose: () => void, initial?: string): void {
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  }, [onClose]);

  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const first =
      (initial ? root.querySelector<HTMLElement>(initial) : null) ??
      root.querySelector<HTMLElement>('input:not([type="hidden"]), textarea, select') ??
      tabbables(root)[0] ??
      root;
    if (first === root && !root.hasAttribute('tabindex')) root.tabIndex = -1;
    first.focus();

    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        close.current();
        return;
      }
      if (e.key !== 'Tab') return;
      const items = tabbables(root);
      if (items.length === 0) {
        e.preventDefault();
        return;
      }
      const at = items.indexOf(document.activeElement as HTMLElement);
      if (e.shiftKey && at <= 0) {
        e.preventDefault();
        items.at(-1)!.focus();
      } else if (!e.shiftKey && (at === items.length - 1 || at < 0)) {
        e.preventDefault();
        items[0].focus();
      }
    };
    // Focus that lands outside (a click on the page behind) is brought back in.
    const onFocusIn = (e: FocusEvent) => {
      if (e.target instanceof Node && !root.contains(e.target) && !isInOtherDialog(e.target, root))
        (tabbables(root)[0] ?? root).focus();
    };
    root.addEventListener('keydown', onKey);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      root.removeEventListener('keydown', onKey);
      document.removeEventListener('focusin', onFocusIn);
      if (opener?.isConnected) opener.focus();
    };
    // The dialog's element and its opener are fixed for its lifetime.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

/** A dialog opened over this one (e.g. from a drawer) owns the focus while it is open. */
function isInOtherDialog(node: Node, root: HTMLElement): boolean {
  const el = node instanceof HTMLElement ? node : node.parentElement;
  const dialog = el?.closest('[role="dialog"], [role="alertdialog"]');
  return !!dialog && dialog !== root;
}
