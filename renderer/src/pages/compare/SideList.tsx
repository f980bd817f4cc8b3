import type { ReactNode } from 'react';
import type { AppErrorShape } from '@shared/errors';
import { Loading } from '../../components/States';

/** What a side card reads: the latest list (kept through a reload), or why it could not be read. */
interface ListRead<T> {
  state: 'loading' | 'ok' | 'error';
  error?: AppErrorShape;
  last?: T[];
  reload(): void;
}

/** A side card's list in its states: the read error with Retry, loading, empty, or its rows (`children`). */
export function SideList<T>({
  q,
  what,
  empty,
  children,
}: {
  q: ListRead<T>;
  /** What is read, for the messages: "recent comparisons". */
  what: string;
  empty: ReactNode;
  children: (items: T[]) => ReactNode;
}) {
  if (q.state === 'error')
    return (
      <p className="field-error" role="alert">
        The {what} could not be read: {q.error?.message}{' '}
        <button className="btn btn-xs" onClick={q.reload}>
          Retry
        </button>
      </p>
    );
  if (!q.last) return <Loading label={`Reading ${what}…`} />;
  if (!q.last.length) return <p className="muted small">{empty}</p>;
  return <ul className="cmp-list">{children(q.last)}</ul>;
}
