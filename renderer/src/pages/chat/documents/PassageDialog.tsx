import type { Citation } from '@shared/contract/documents';
import { ErrorState, Loading } from '../../../components/States';
import { usePassage } from '../../../hooks/documents';
import { MarkdownBody } from '../MarkdownBody';
import { DocDialog } from './DocDialog';

/** Where a passage is in its document: page and heading, as far as they are known. */
export const placeOf = (p: { page?: number; heading?: string }) =>
  [p.page !== undefined ? `page ${p.page}` : '', p.heading ?? ''].filter(Boolean).join(' · ');

/** A cited passage, opened: its text (as Markdown) with its place in the document (file path, page, heading). */
export function PassageDialog({ citation, onClose }: { citation: Citation; onClose(): void }) {
  const q = usePassage(citation.chunk);
  const place = placeOf(q.state === 'ok' ? q.data : citation);
  return (
    <DocDialog
      title={`[${citation.n}] ${citation.name}`}
      onClose={onClose}
      testId="passage-dialog"
      footer={
        <button className="btn" onClick={onClose}>
          Close
        </button>
      }
    >
      {place && <p className="muted small doc-passage-place">{place}</p>}
      {q.state === 'loading' && <Loading label="Opening the passage…" />}
      {q.state === 'error' && (
        <>
          <ErrorState error={q.error} title="This passage could not be opened" onRetry={q.reload} />
          <p className="muted small">What the reply was given:</p>
          <blockquote className="doc-passage-text">{citation.excerpt}</blockquote>
        </>
      )}
      {q.state === 'ok' && (
        <>
          <p className="muted small doc-passage-path" title={q.data.path}>
            {q.data.path}
          </p>
          {/* The chat's Markdown renderer: a passage is mostly Markdown (headings, bold, lists, tables, code). */}
          <div
            className="doc-passage-text doc-passage-md"
            data-testid="passage-text"
            tabIndex={0}
            role="region"
            aria-label="Passage"
          >
            <MarkdownBody text={q.data.text} />
          </div>
        </>
      )}
    </DocDialog>
  );
}
