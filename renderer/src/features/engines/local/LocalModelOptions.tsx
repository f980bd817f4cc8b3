import { useId } from 'react';
import { isTextModel } from '@shared/chat-model';
import type { LocalModel, LocalSource } from '@shared/contract/local-models';
import { useLocalLibrary } from '../../../hooks/local';
import { memoryTotal, verdictLabels } from '@shared/fit';
import { formatBytes } from '../../../lib/format';
import { hrefFor } from '../../../store/route';
import './fit-short.css';

const sourceLabels: Record<LocalSource, string> = {
  downloaded: 'Downloaded by HubDesk',
  'hf-cache': 'Hugging Face cache',
  lmstudio: 'LM Studio',
  folder: 'Your folders',
};

/** The models the built-in engine can chat with: on disk, readable, and neither an embedding model nor a reranker. */
export const chatReady = (models: readonly LocalModel[] | undefined): LocalModel[] =>
  (models ?? []).filter((m) => !m.problem && isTextModel(m));

/** A local model as the picker names it: its title (or file name), quantization and size. */
const localModelLabel = (m: LocalModel): string =>
  [m.title || m.name, m.quant, formatBytes(m.sizeBytes)].filter(Boolean).join(' · ');

/**
 * The built-in engine's model picker: the GGUFs on disk it can chat with, grouped by where they were found; none
 * → where to get one. A conversation's model no longer on disk stays selected and says so.
 */
export function LocalModelOptions({ model, onPick }: { model: string; onPick(id: string): void }) {
  const library = useLocalLibrary();
  const models = chatReady(library.data?.models);
  if (!library.data) {
    if (library.state === 'error')
      return (
        <span className="field-error" role="alert" data-testid="local-models-error">
          The models on disk could not be listed: {library.error.message}{' '}
          <button className="btn btn-xs" onClick={() => library.reload()}>
            Retry
          </button>
        </span>
      );
    return <span className="muted small">Looking for models on disk…</span>;
  }
  if (models.length === 0)
    return (
      <p className="help local-none" data-testid="local-none">
        No model on disk the built-in engine can chat with yet.{' '}
        <a href={hrefFor('models', 'builtin')}>Find or download one in Local models</a>.
      </p>
    );
  const current = models.find((m) => m.id === model);
  const groups = [...new Set(models.map((m) => m.source))];
  return (
    <>
      <select
        aria-label="Model"
        value={model}
        onChange={(e) => onPick(e.target.value)}
        data-testid="local-model-select"
      >
        <option value="">Choose a model…</option>
        {model && !current && <option value={model}>{model} (not on disk)</option>}
        {groups.map((source) => (
          <optgroup key={source} label={sourceLabels[source]}>
            {models
              .filter((m) => m.source === source)
              .map((m) => (
                <option key={m.id} value={m.id} title={m.path}>
                  {localModelLabel(m)}
                </option>
              ))}
          </optgroup>
        ))}
      </select>
      {current?.plan?.explanation && <FitShort plan={current.plan} />}
    </>
  );
}

/**
 * The header's fit line: the verdict and the one memory figure; the whole arithmetic (file + KV cache + runtime,
 * compared with what) is the tip, on hover and on focus, as in the library.
 */
function FitShort({ plan }: { plan: NonNullable<LocalModel['plan']> }) {
  const tip = useId();
  return (
    <span
      className="help local-model-info"
      data-testid="local-model-info"
      tabIndex={plan.explanation ? 0 : undefined}
      aria-describedby={plan.explanation ? tip : undefined}
    >
      {plan.verdict ? verdictLabels[plan.verdict] : 'Fit estimate'}
      {plan.memory && ` · needs about ${formatBytes(memoryTotal(plan.memory))}`}
      {plan.explanation && (
        <span role="tooltip" id={tip} className="local-model-tip tip-popover">
          {plan.explanation}
        </span>
      )}
    </span>
  );
}
