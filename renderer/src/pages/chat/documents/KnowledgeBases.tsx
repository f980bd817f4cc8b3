import { useEffect, useRef, useState } from 'react';
import type { KnowledgeBase } from '@shared/contract/documents';
import { Loading } from '../../../components/States';
import { useFieldAction } from '../../../hooks/field-action';
import { useDocActions, useDocsWatch } from '../../../hooks/documents';
import { useDocuments } from '../../../store/documents';
import { AttachButton } from './AttachButton';
import { DocDialog } from './DocDialog';
import { DocumentsPanel } from './DocumentsPanel';
import { EmbedderPicker } from './EmbedderPicker';
import { indexing } from './progress';
import './documents.css';

/** One named base in the manager: its name (renamed in place), attach, delete, and its documents. */
function BaseCard({ base }: { base: KnowledgeBase }) {
  const { rename, remove } = useDocActions();
  const [name, setName] = useState(base.name);
  const [confirm, setConfirm] = useState(false);
  const uploads = useDocuments((s) => s.uploads).filter((u) => 'base' in u.target && u.target.base === base.id);
  const busy = base.documents.filter(indexing).length;
  return (
    <section className="doc-base" aria-label={base.name} data-testid="kb-card">
      <div className="doc-base-head">
        <input
          className="doc-base-name"
          aria-label="Knowledge base name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          onBlur={() => name.trim() && name.trim() !== base.name && void rename.run(base.id, name.trim())}
          onKeyDown={(e) => e.key === 'Enter' && e.currentTarget.blur()}
        />
        <span className="muted small">
          {base.documents.length} {base.documents.length === 1 ? 'document' : 'documents'}
          {busy ? ` · ${busy} indexing` : ''}
        </span>
        <AttachButton target={{ base: base.id }} label="Add" />
        {confirm ? (
          <>
            <button className="btn btn-xs btn-danger" disabled={remove.busy} onClick={() => void remove.run(base.id)}>
              Delete {base.name}
            </button>
            <button className="btn btn-xs" onClick={() => setConfirm(false)}>
              Keep it
            </button>
          </>
        ) : (
          <button className="btn btn-ghost btn-xs" onClick={() => setConfirm(true)}>
            Delete…
          </button>
        )}
      </div>
      {confirm && <p className="small doc-warn">Its index goes; files attached in place are never touched.</p>}
      <DocumentsPanel base={base} uploads={uploads} />
      {[rename.error, remove.error].filter(Boolean).map((e, i) => (
        <p key={i} className="doc-error small" role="alert">
          {e!.message}
        </p>
      ))}
    </section>
  );
}

/** Knowledge bases: named sets of documents any chat can use; create, rename, delete, attach; the embedding model. */
export function KnowledgeBasesDialog({ onClose }: { onClose(): void }) {
  const { bases, error } = useDocsWatch();
  const { create } = useDocActions();
  const name = useFieldAction(create.run);
  const named = (bases ?? []).filter((b) => !b.conversation);
  return (
    <DocDialog
      title="Knowledge bases"
      onClose={onClose}
      testId="kb-dialog"
      footer={
        <button className="btn" onClick={onClose}>
          Close
        </button>
      }
    >
      <form className="doc-kb-new" onSubmit={name.onSubmit}>
        <input
          aria-label="New knowledge base name"
          placeholder="New knowledge base, e.g. Project notes"
          value={name.value}
          onChange={(e) => name.setValue(e.target.value)}
        />
        <button className="btn btn-primary" disabled={!name.ready || create.busy}>
          Create
        </button>
      </form>
      {create.error && (
        <p className="doc-error small" role="alert">
          {create.error.message}
        </p>
      )}
      {error && (
        <p className="doc-error small" role="alert">
          {error.message}
        </p>
      )}
      {!bases && !error ? (
        <Loading label="Loading knowledge bases…" />
      ) : named.length === 0 ? (
        <p className="muted small">No knowledge bases yet. A base is a set of files or folders any chat can use.</p>
      ) : (
        named.map((b) => <BaseCard key={b.id} base={b} />)
      )}
      <EmbedderPicker />
    </DocDialog>
  );
}

/** More settings: which named bases this chat's replies search (its own attachments always are), and Manage. */
export function ChatBases({ value, onChange }: { value?: string[]; onChange(bases: string[]): void }) {
  const { bases, error } = useDocsWatch();
  const [manage, setManage] = useState(false);
  // Shown at once; the conversation's saved value replaces it when it comes back.
  const saved = (value ?? []).join('\n');
  const [picked, setPicked] = useState(value ?? []);
  useEffect(() => setPicked(saved ? saved.split('\n') : []), [saved]);
  const manageButton = useRef<HTMLButtonElement>(null);
  const named = (bases ?? []).filter((b) => !b.conversation);
  return (
    <fieldset className="doc-chat-bases" data-testid="chat-bases">
      <legend>Knowledge bases</legend>
      {error ? (
        <span className="doc-error small">{error.message}</span>
      ) : !bases ? (
        <span className="muted small">Loading…</span>
      ) : named.length === 0 ? (
        <span className="muted small">None yet.</span>
      ) : (
        named.map((b) => (
          <label key={b.id} className="doc-check">
            <input
              type="checkbox"
              checked={picked.includes(b.id)}
              onChange={(e) => {
                const next = e.target.checked ? [...picked, b.id] : picked.filter((x) => x !== b.id);
                setPicked(next);
                onChange(next);
              }}
            />
            {b.name} <span className="muted small">({b.documents.length})</span>
          </label>
        ))
      )}
      <button ref={manageButton} type="button" className="btn btn-ghost btn-xs" onClick={() => setManage(true)}>
        Manage knowledge bases…
      </button>
      {manage && (
        <KnowledgeBasesDialog
          onClose={() => {
            setManage(false);
            manageButton.current?.focus();
          }}
        />
      )}
    </fieldset>
  );
}
