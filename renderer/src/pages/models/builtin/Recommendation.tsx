import type { Recommendation } from '@shared/contract/local-models';
import { useDownloadActions, useRecommendation } from '../../../hooks/local';
import { formatBytes } from '../../../lib/format';
import { useRoute } from '../../../store/route';
import './builtin.css';
import { ErrorLine } from '../Modal';

/**
 * The small GGUF HubDesk suggests for this machine: "Download and run" queues it and opens the built-in engine;
 * one already on disk offers "Load" (the load form, pre-filled, on the built-in tab).
 */
export function RecommendationCard({ heading }: { heading?: string }) {
  const rec = useRecommendation();
  const { start } = useDownloadActions();
  const go = useRoute((s) => s.go);
  if (rec.state === 'loading') return <p className="muted small">Finding a small model that fits this machine…</p>;
  if (rec.state === 'error')
    return (
      <p className="field-error" role="alert">
        No suggestion: {rec.error.message}
      </p>
    );
  const r: Recommendation | undefined = rec.data.recommendation;
  if (!r)
    return (
      <p className="muted small">
        No small model on HubDesk’s list fits this machine; pick a GGUF on a model page in the catalogue.
      </p>
    );
  const download = async () => {
    if (await start.run({ repo: r.repo, file: r.file })) go('models', 'builtin');
  };
  return (
    <div className="rec-card" data-testid="recommendation">
      {heading && <h3>{heading}</h3>}
      <div className="rec-head">
        <strong>{r.title}</strong>
        <span className="badge">{r.quant}</span>
        <span className="muted small">{formatBytes(r.sizeBytes)}</span>
      </div>
      <p className="muted small rec-why">{r.why}</p>
      <p className="muted small mono rec-file">
        {r.repo}/{r.file}
      </p>
      {r.modelId ? (
        <button className="btn btn-primary" onClick={() => go('models', 'builtin', 'load', r.modelId!)}>
          Load
        </button>
      ) : (
        <button className="btn btn-primary" onClick={() => void download()} disabled={start.busy}>
          {start.busy ? 'Starting…' : 'Download and run'}
        </button>
      )}
      <ErrorLine error={start.error} />
    </div>
  );
}

/** Beside the Ollama tab's "not reachable" state: the way to run a model without Ollama. */
export function NoOllamaOffer() {
  return (
    <section className="card no-ollama" aria-labelledby="no-ollama-title" data-testid="no-ollama">
      <h2 id="no-ollama-title">No Ollama? Run models inside HubDesk</h2>
      <p className="muted small">
        HubDesk has its own llama.cpp engine: it runs GGUF files from the Hub, your Hugging Face cache or LM Studio’s
        folder, with nothing else to install.
      </p>
      <RecommendationCard />
    </section>
  );
}
