import type { LocalModel } from '@shared/contract/ollama';
import { useDeleteModel } from '../../hooks/models';
import { formatBytes } from '../../lib/format';
import { ConfirmDelete } from './Modal';

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
    <ConfirmDelete
      name={model.name}
      confirm="Delete"
      busy={busy}
      error={error}
      onConfirm={() => void run()}
      onClose={onClose}
    >
      <p>
        Ollama removes this model and frees up to {formatBytes(model.size)} (layers shared with other models stay). You
        can pull it again later.
      </p>
    </ConfirmDelete>
  );
}
