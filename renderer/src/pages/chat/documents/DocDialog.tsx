import { useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useDialog } from '../../../components/useDialog';

/**
 * A dialog of the documents UI: a title, its body and its buttons; Escape or a click outside closes it. Rendered on
 * the body: a message row is positioned by a transform, which would hold a fixed backdrop inside it.
 */
export function DocDialog({
  title,
  onClose,
  children,
  footer,
  testId,
}: {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  footer: ReactNode;
  testId?: string;
}) {
  const id = useId();
  const ref = useRef<HTMLDivElement>(null);
  useDialog(ref, onClose, 'input, .doc-dialog-footer .btn');
  return createPortal(
    <div className="doc-dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={ref} className="doc-dialog" role="dialog" aria-modal="true" aria-labelledby={id} data-testid={testId}>
        <h2 id={id}>{title}</h2>
        <div className="doc-dialog-body">{children}</div>
        <div className="doc-dialog-footer">{footer}</div>
      </div>
    </div>,
    document.body,
  );
}
