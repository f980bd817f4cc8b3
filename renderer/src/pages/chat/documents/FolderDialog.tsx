import type { DocTarget } from '@shared/contract/documents';
import { useDocActions } from '../../../hooks/documents';
import { useFieldAction } from '../../../hooks/field-action';
import { DocDialog } from './DocDialog';

/** A file or folder by its path on this computer: indexed where it is, never copied (the browser cannot pick one). */
export function FolderDialog({ target, onClose }: { target: DocTarget; onClose(): void }) {
  const { attachPath } = useDocActions();
  const path = useFieldAction((text) => attachPath.run(target, text), { onDone: onClose });
  return (
    <DocDialog
      title="Attach a folder"
      onClose={onClose}
      testId="folder-dialog"
      footer={
        <>
          <button className="btn" onClick={onClose}>
            Cancel
          </button>
          <button className="btn btn-primary" disabled={!path.ready || attachPath.busy} onClick={path.submit}>
            {attachPath.busy ? 'Attaching…' : 'Attach'}
          </button>
        </>
      }
    >
      <form onSubmit={path.onSubmit}>
        <label className="doc-field">
          <span>Folder or file path on this computer</span>
          <input
            value={path.value}
            onChange={(e) => path.setValue(e.target.value)}
            placeholder="/home/me/notes"
            spellCheck={false}
            aria-describedby="doc-folder-help"
          />
        </label>
        <p id="doc-folder-help" className="muted small">
          It is indexed where it is, never copied, and changes in it are picked up.
        </p>
      </form>
      {attachPath.error && (
        <p className="doc-error" role="alert">
          {attachPath.error.message}
        </p>
      )}
    </DocDialog>
  );
}
