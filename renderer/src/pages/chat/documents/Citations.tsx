import { useEffect, useRef, useState } from 'react';
import type { Citation, ReplyContext } from '@shared/contract/documents';
import { linkCitations } from './cite-links';
import { PassageDialog, placeOf } from './PassageDialog';
import { sourcesLine } from './sources-line';
import './documents.css';

/**
 * "Sources" under a reply that was given documents: how they reached the model (whole, or retrieved passages), the
 * numbered passages as chips ([1] file.pdf p. 3) that open in a dialog, and what was not indexed yet.
 */
export function Citations({ context, text }: { context: ReplyContext; text?: string }) {
  const [open, setOpen] = useState<Citation>();
  const { citations, notIndexed } = context;
  const ref = useRef<HTMLDivElement>(null);
  // The reply's [n] markers link to their sources: linked once rendered, and again when its blocks change.
  useEffect(() => {
    const body = ref.current?.closest('.msg-bubble')?.querySelector<HTMLElement>('.msg-body');
    if (!body || !citations.length) return;
    linkCitations(body, citations);
    const watch = new MutationObserver(() => linkCitations(body, citations));
    watch.observe(body, { childList: true, subtree: true });
    const onClick = (e: MouseEvent) => {
      const n = (e.target as HTMLElement).closest<HTMLElement>('.doc-cite')?.dataset.cite;
      const c = n && citations.find((x) => x.n === Number(n));
      if (c) setOpen(c);
    };
    body.addEventListener('click', onClick);
    return () => {
      watch.disconnect();
      body.removeEventListener('click', onClick);
    };
  }, [citations, text]);
  return (
    <div className="doc-sources" data-testid="msg-sources" ref={ref}>
      <p className="doc-sources-line small muted">
        <strong>Sources</strong> · <span data-testid="msg-sources-how">{sourcesLine(context)}</span>
      </p>
      {citations.length > 0 && (
        <ul className="doc-source-chips" aria-label="Sources">
          {citations.map((c) => {
            const place = placeOf(c);
            return (
              <li key={c.n}>
                <button
                  className="doc-chip doc-source-chip"
                  data-testid="source-chip"
                  title={`${c.name}${place ? ` · ${place}` : ''}\n${c.excerpt.slice(0, 300)}`}
                  onClick={() => setOpen(c)}
                >
                  <span className="doc-source-n">[{c.n}]</span>{' '}
                  <span className="doc-chip-name doc-source-name" data-testid="source-name">
                    {c.name}
                  </span>
                  {c.page !== undefined ? (
                    <span className="muted"> p. {c.page}</span>
                  ) : (
                    c.heading && <span className="muted doc-chip-name doc-source-heading">&nbsp;· {c.heading}</span>
                  )}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {notIndexed?.length ? (
        <p className="doc-sources-line small doc-warn" data-testid="msg-not-indexed">
          Not read yet when asked, so not searched (the answer did not see them): {notIndexed.join(', ')}
        </p>
      ) : null}
      {open && <PassageDialog citation={open} onClose={() => setOpen(undefined)} />}
    </div>
  );
}
