import { useEffect, useRef, useState } from 'react';
import type { AppErrorShape } from '@shared/errors';
import { download } from '../../lib/download';
import { useChat } from '../../store/chat';
import { useRoute } from '../../store/route';

/**
 * The sidebar's "Import JSON…" and "Export all". A file whose conversation is already here (imported before, or
 * the one it was exported from) is not imported again unless the user says so.
 */
export function ChatFiles({ canExport, currentId }: { canExport: boolean; currentId?: string }) {
  const go = useRoute((s) => s.go);
  const fileRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<AppErrorShape>();
  const [imported, setImported] = useState<string>();
  /** The file waiting for the user's answer to "Import again as a copy?", and why it was asked. */
  const [again, setAgain] = useState<{ text: string; why: string }>();
  // An import's error is about that file: it goes once another conversation is opened.
  useEffect(() => setError(undefined), [currentId]);

  const importText = async (text: string, asCopy = false) => {
    setAgain(undefined);
    try {
      const metas = await useChat.getState().importJson(text, asCopy);
      setError(undefined);
      setImported(metas.length > 1 ? `Imported ${metas.length} conversations.` : undefined);
      go('chat', metas[0].id);
    } catch (e) {
      const err = e as AppErrorShape;
      setImported(undefined);
      setError(err.code === 'conflict' && !asCopy ? undefined : err);
      if (err.code === 'conflict' && !asCopy) setAgain({ text, why: err.message });
    }
  };
  const exportAll = async () => {
    try {
      const r = await useChat.getState().exportAll();
      download(r.filename, r.text, r.mime);
      setError(undefined);
    } catch (e) {
      setError(e as AppErrorShape);
    }
  };

  return (
    <div className="conv-foot">
      <button className="btn btn-ghost btn-xs" onClick={() => fileRef.current?.click()}>
        Import JSON…
      </button>
      <button
        className="btn btn-ghost btn-xs"
        title="Every conversation with all its versions, in one file"
        onClick={() => void exportAll()}
        disabled={!canExport}
      >
        Export all
      </button>
      <input
        ref={fileRef}
        type="file"
        accept="application/json,.json"
        hidden
        data-testid="import-file"
        onChange={async (e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (f) await importText(await f.text());
        }}
      />
      {again && (
        <div className="import-again" role="group" aria-label="Already imported">
          <p className="small">{again.why} Import again as a copy?</p>
          <button className="btn btn-xs" autoFocus onClick={() => void importText(again.text, true)}>
            Import a copy
          </button>
          <button className="btn btn-ghost btn-xs" onClick={() => setAgain(undefined)}>
            Cancel
          </button>
        </div>
      )}
      {imported && (
        <p className="muted small" role="status">
          {imported}
        </p>
      )}
      {error && (
        <p className="field-error small import-error" role="alert">
          <span>{error.message}</span>
          <button className="icon-btn" aria-label="Dismiss" title="Dismiss" onClick={() => setError(undefined)}>
            ×
          </button>
        </p>
      )}
    </div>
  );
}
