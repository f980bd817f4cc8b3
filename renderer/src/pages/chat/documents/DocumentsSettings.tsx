import { useRef, useState } from 'react';
import { EmbedderPicker } from './EmbedderPicker';
import { KnowledgeBasesDialog } from './KnowledgeBases';
import './documents.css';

/** Settings → Documents: the embedding model every base is indexed with, and the knowledge bases. */
export function DocumentsSettings() {
  const [manage, setManage] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <div className="card" data-testid="documents-settings">
      <h2>Documents</h2>
      <EmbedderPicker />
      <p>
        <button ref={button} className="btn" onClick={() => setManage(true)}>
          Manage knowledge bases…
        </button>
      </p>
      {manage && (
        <KnowledgeBasesDialog
          onClose={() => {
            setManage(false);
            button.current?.focus();
          }}
        />
      )}
    </div>
  );
}
