import type { LocalModel } from '@shared/contract/ollama';
import { pushTarget } from '@shared/push-target';
import { formatBytes } from '../../lib/format';
import { Modal } from './Modal';

/** Publish a model to ollama.com: says where it goes and what it needs before the push starts. */
export function PushDialog({
  model,
  onClose,
  onPublish,
  onCopy,
}: {
  model: LocalModel;
  onClose: () => void;
  onPublish: () => void;
  onCopy: () => void;
}) {
  const checked = pushTarget(model.name);
  if ('refusal' in checked)
    return (
      <Modal
        title={`Push ${model.name}`}
        onClose={onClose}
        footer={
          <>
            <button className="btn" onClick={onClose}>
              Close
            </button>
            <button className="btn btn-primary" onClick={onCopy}>
              Copy / rename…
            </button>
          </>
        }
      >
        <p role="alert">{checked.refusal}</p>
      </Modal>
    );
  const { site, ref } = checked.target;
  return (
    <Modal
      title={`Publish ${model.name}?`}
      onClose={onClose}
      footer={
        <>
          <button className="btn" onClick={onClose}>
            Cancel
          </button>
          <button className="btn btn-primary" onClick={onPublish}>
            Publish
          </button>
        </>
      }
    >
      <p>
        Publish {model.name} to {site} as {ref}? Ollama uploads its {formatBytes(model.size)} of weights there. Anyone
        can pull it with <code className="mono">ollama pull {site === 'ollama.com' ? ref : `${site}/${ref}`}</code>,
        unless the model is made private on {site}.
      </p>
      {site === 'ollama.com' && (
        <p className="help">
          ollama.com takes it only from an Ollama whose public key is added to the {ref.split('/')[0]} account
          (ollama.com → Settings → Ollama keys).
        </p>
      )}
    </Modal>
  );
}
