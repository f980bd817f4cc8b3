import { useId, useRef, type ReactNode } from 'react';
import type { AppErrorShape } from '@shared/errors';
import { useDialog } from '../../components/useDialog';

/** A dialog of the Local models page: a title, its body and its buttons; Escape or a click outside closes it. */
export function Modal({
  title,
  onClose,
  children,
  footer,
  wide,
  className,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer: ReactNode;
  wide?: boolean;
  /** A class of its own, for a dialog sized to its content (code panes). */
  className?: string;
}) {
  const id = useId();
  const ref = useRef<HTMLDivElement>(null);
  useDialog(ref, onClose, 'input, textarea, .modal-footer .btn');
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={ref}
        className={`modal card${wide ? ' modal-wide' : ''}${className ? ` ${className}` : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={id}
      >
        <h2 id={id}>{title}</h2>
        <div className="modal-body">{children}</div>
        <div className="modal-footer">{footer}</div>
      </div>
    </div>
  );
}

/** Why the dialog's call failed, with the HTTP status when there is one. */
export function ErrorLine({ error }: { error?: AppErrorShape }) {
  if (!error) return null;
  return (
    <p className="field-error" role="alert">
      {error.message}
      {error.status ? ` (HTTP ${error.status})` : ''}
    </p>
  );
}

/** "Delete <name>?": Keep it, or the danger button; the body says what goes, the error line why it failed. */
export function ConfirmDelete({
  name,
  confirm,
  busy,
  error,
  onConfirm,
  onClose,
  children,
}: {
  name: string;
  confirm: string;
  busy: boolean;
  error?: AppErrorShape;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Modal
      title={`Delete ${name}?`}
      onClose={onClose}
      footer={
        <>
          <button className="btn" onClick={onClose}>
            Keep it
          </button>
          <button className="btn btn-danger" onClick={onConfirm} disabled={busy}>
            {busy ? 'Deleting…' : confirm}
          </button>
        </>
      }
    >
      {children}
      <ErrorLine error={error} />
    </Modal>
  );
}
