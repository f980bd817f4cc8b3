import { useEffect, useState, type ReactNode } from 'react';
import type { AppErrorShape } from '@shared/errors';
import { Icon } from './Icon';

/** Shared loading / empty / error states: every screen uses these instead of a blank area. */
/** `delayMs`: for work that is usually over at once (a new chat made by main), shown only if it is not, never as a flash. */
export function Loading({ label = 'Loading…', delayMs = 0 }: { label?: string; delayMs?: number }) {
  const [shown, setShown] = useState(delayMs <= 0);
  useEffect(() => {
    if (shown) return;
    const timer = setTimeout(() => setShown(true), delayMs);
    return () => clearTimeout(timer);
  }, [shown, delayMs]);
  return (
    <div className="state" role="status" aria-live="polite">
      {shown && (
        <>
          <span className="spinner" aria-hidden="true" />
          <span>{label}</span>
        </>
      )}
    </div>
  );
}

export function Empty({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="state state-empty">
      <div className="state-icon">
        <Icon name="empty" size={28} />
      </div>
      <h2>{title}</h2>
      {children && <div className="state-body">{children}</div>}
      {action && <div className="state-action">{action}</div>}
    </div>
  );
}

export function ErrorState({
  error,
  title = 'Something went wrong',
  onRetry,
  action,
}: {
  error: AppErrorShape;
  title?: string;
  onRetry?: () => void;
  /** A way out other than trying again. */
  action?: ReactNode;
}) {
  return (
    <div className="state state-error" role="alert">
      <div className="state-icon">
        <Icon name="alert" size={28} />
      </div>
      <h2>{title}</h2>
      <p className="state-body">{error.message}</p>
      {/* The status a person can look up; the error's code ("unavailable") is for the program, not for them. */}
      {error.status ? <p className="muted small">HTTP {error.status}</p> : null}
      {onRetry && (
        <button className="btn" onClick={onRetry}>
          Try again
        </button>
      )}
      {action}
    </div>
  );
}
