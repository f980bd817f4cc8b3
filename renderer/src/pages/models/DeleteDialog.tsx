import type { LocalModel } from '@shared/contract/ollama';
import { useDeleteModel } from '../../hooks/models';
import { formatBytes } from '../../lib/format';
import { ErrorLine, Modal } from './Modal';

/** "Delete <model>?": Ollama removes it (ollama.delete). */
export function DeleteDialog({
  model,
  onClose,
  onDone,
}: {
  model: LocalModel;
  onClose: () => void;
  onDone: () => void;
}) {
  const { busy, error, run } = useDeleteModel(model.name, onDone);
  return (
    <Modal
      title={`Delete ${model.name}?`}
      onClose={onClose}
      footer={
        <>
          <button className="btn" onClick={onClose}>
            Keep it
          </button>
          <button className="btn btn-danger" onClick={() => void run()} disabled={busy}>
            {busy ? 'Deleting…' : 'Delete'}
          </button>
        </>
      }
    >
      <p>
        Ollama removes this model and frees up to {formatBytes(model.size)} (layers shared with other models stay). You
        can pull it again later.
      </p>
      <ErrorLine error={error} />
    </Modal>
  );
}
