import { isTextModel } from '@shared/chat-model';
import { useLocalLibrary } from '../../../hooks/local';
import { ErrorState, Loading } from '../../../components/States';
import { AppSetups } from '../../../features/snippets/AppSetups';
import { Modal } from '../Modal';

/** "Use from another app" from the server card: the setups for any chat model on disk, in a dialog wide enough for code. */
export function ServerAppsDialog({ onClose }: { onClose: () => void }) {
  const lib = useLocalLibrary();
  // Embedding models answer /v1/embeddings only, rerankers /v1/rerank, and a model with a problem cannot load: none
  // is offered.
  const chat = lib.data?.models.filter((m) => isTextModel(m) && !m.problem);
  return (
    <Modal
      title="Use from another app"
      onClose={onClose}
      className="modal-setups"
      footer={
        <button className="btn" onClick={onClose}>
          Close
        </button>
      }
    >
      {chat ? (
        <AppSetups
          models={chat}
          idPrefix="server-setups"
          empty="Download a GGUF chat model, or add a folder that has one, to use it from other apps through this server."
        />
      ) : lib.state === 'error' ? (
        <ErrorState error={lib.error} title="Could not list the models on disk" onRetry={lib.reload} />
      ) : (
        <Loading label="Listing the models on disk…" />
      )}
    </Modal>
  );
}
