import { useState } from 'react';
import type { ConversationMeta } from '@shared/contract/chat-conversation';
import { useDocsWatch } from '../../../hooks/documents';
import { useDocuments, type Upload } from '../../../store/documents';
import { DocumentsPanel } from './DocumentsPanel';
import { EmbedderPicker } from './EmbedderPicker';
import { IndexingStopped } from './IndexingStopped';
import { fraction, indexing } from './progress';
import './documents.css';

const NONE: Upload[] = [];

/**
 * The conversation's documents above the composer: a chip per document (its state at a glance) and the named
 * bases it uses; the chips open the Documents panel (progress, errors, Send whole, Remove, the embedding model).
 */
export function ConversationDocs({ meta }: { meta: ConversationMeta }) {
  const { bases, error } = useDocsWatch(meta.id);
  const uploads = useDocuments((s) => s.uploads);
  const mineUp = uploads.filter((u) => 'conversation' in u.target && u.target.conversation === meta.id);
  const own = bases?.find((b) => b.conversation === meta.id);
  const named = (bases ?? []).filter((b) => !b.conversation && meta.bases?.includes(b.id));
  const [open, setOpen] = useState(false);
  // Bumped to open the panel with its embedding model picker focused ("Change", "Choose a model…").
  const [choose, setChoose] = useState(0);
  const openPicker = () => {
    setOpen(true);
    setChoose((n) => n + 1);
  };
  const stopped = !!own?.error;
  const docs = own?.documents ?? [];
  if (!docs.length && !mineUp.length && !named.length && !error) return null;
  const busy = docs.filter(indexing).length + mineUp.filter((u) => u.state !== 'error').length;
  const failed = docs.filter((d) => d.state === 'error').length + mineUp.filter((u) => u.state === 'error').length;
  const summary = [
    `${docs.length + mineUp.length} ${docs.length + mineUp.length === 1 ? 'document' : 'documents'}`,
    busy ? `${busy} ${stopped ? 'not indexed' : 'indexing'}` : '',
    failed ? `${failed} failed` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <div className="doc-strip" data-testid="doc-strip">
      <div className="doc-chips">
        <button
          className="doc-chip doc-chip-toggle"
          aria-expanded={open}
          aria-controls={open ? `docs-${meta.id}` : undefined}
          onClick={() => setOpen(!open)}
        >
          {open ? '▾' : '▸'} {summary}
        </button>
        {docs.slice(0, 6).map((d) => {
          const f = fraction(d);
          return (
            <span
              key={d.id}
              className={`doc-chip doc-${d.state}`}
              title={d.error?.message ?? d.path}
              data-testid="doc-chip"
            >
              <span className="doc-chip-name">{d.name}</span>
              {d.state === 'error'
                ? ' · failed'
                : indexing(d)
                  ? ` · ${stopped ? 'stopped' : f !== undefined ? `${Math.round(f * 100)}%` : '…'}`
                  : ''}
              {d.pinned && ' ★'}
            </span>
          );
        })}
        {docs.length > 6 && <span className="doc-chip muted">+{docs.length - 6} more</span>}
        {own?.embedder && docs.length > 0 && (
          <button
            className="doc-chip doc-chip-embedder"
            data-testid="doc-embedder"
            title="The embedding model the documents are searched with: click to change it"
            onClick={openPicker}
          >
            <span className="doc-chip-name">
              <span className="muted">Embeddings:</span> {shortModel(own.embedder.model)}
            </span>
          </button>
        )}
        {named.map((b) => (
          <span key={b.id} className="doc-chip doc-chip-base" title="A knowledge base this chat uses (More settings)">
            📚 {b.name}
          </span>
        ))}
      </div>
      {own?.error && <IndexingStopped base={own} onChoose={openPicker} />}
      {error && (
        <p className="doc-error small" role="alert">
          Documents: {error.message}
        </p>
      )}
      {open && (
        <div className="doc-strip-panel" id={`docs-${meta.id}`} role="region" aria-label="Documents">
          <DocumentsPanel base={own} uploads={mineUp.length ? mineUp : NONE} />
          <EmbedderPicker compact focus={choose} />
        </div>
      )}
    </div>
  );
}

/** A model's name as the strip shows it: Ollama's default tag and a GGUF's folders left out. */
const shortModel = (m: string) => m.replace(/:latest$/, '').replace(/^.*\//, '');
