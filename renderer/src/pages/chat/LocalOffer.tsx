import { chatReady } from '../../features/engines/local/LocalModelOptions';
import { useLocalLibrary, useRecommendation } from '../../hooks/local';
import { formatBytes } from '../../lib/format';
import { hrefFor, newChatHref } from '../../store/route';
import { DownloadInline } from '../catalogue/DownloadInline';

const SHOWN = 4;

/**
 * The built-in engine, offered where Ollama cannot answer: the models already on disk ("Chat with …"), else the
 * small model HubDesk recommends for this machine, downloaded here and then chatted with. `onUse` chats in the
 * conversation at hand; without it each model links to a new chat.
 */
export function LocalOffer({ onUse }: { onUse?(id: string): void }) {
  const library = useLocalLibrary();
  const ready = chatReady(library.data?.models);
  const rec = useRecommendation(!!library.data && ready.length === 0);
  const recommendation = rec.state === 'ok' ? rec.data.recommendation : undefined;
  const use = (id: string, label: string) =>
    onUse ? (
      <button className="btn btn-primary btn-sm" onClick={() => onUse(id)} data-testid="local-offer-use">
        {label}
      </button>
    ) : (
      <a className="btn btn-primary btn-sm" href={newChatHref('local', id)} data-testid="local-offer-use">
        {label}
      </a>
    );

  let body;
  if (!library.data) body = <p className="muted small">Looking for models on disk…</p>;
  else if (ready.length > 0)
    body = (
      <ul className="local-offer-models">
        {ready.slice(0, SHOWN).map((m) => (
          <li key={m.id}>
            {use(m.id, `Chat with ${m.title || m.name}`)}{' '}
            <span className="muted small">{[m.quant, formatBytes(m.sizeBytes)].filter(Boolean).join(' · ')}</span>
          </li>
        ))}
        {ready.length > SHOWN && (
          <li>
            <a href={hrefFor('models', 'builtin')}>All {ready.length} models on disk</a>
          </li>
        )}
      </ul>
    );
  else if (rec.state === 'loading') body = <p className="muted small">Finding a small model that fits this machine…</p>;
  else if (recommendation)
    body = (
      <div className="local-offer-rec" data-testid="local-offer-rec">
        <p>
          <strong>{recommendation.title}</strong>{' '}
          <span className="muted small">
            {recommendation.quant} · {formatBytes(recommendation.sizeBytes)}
          </span>
          <br />
          <span className="small">{recommendation.why}</span>
        </p>
        {recommendation.modelId ? (
          use(recommendation.modelId, 'Start chatting')
        ) : (
          <DownloadInline
            repo={recommendation.repo}
            file={recommendation.file}
            startLabel="Download and run"
            chatLabel="Start chatting"
            onChat={onUse}
          />
        )}
      </div>
    );
  else
    body = (
      <p className="small">
        <a href={hrefFor('models', 'builtin')}>Local models → Built-in</a> finds GGUF files on this computer, or
        download one from a model’s page in the catalogue.
      </p>
    );

  return (
    <section className="local-offer" aria-label="The built-in engine" data-testid="local-offer">
      <h3>Or chat with the built-in engine</h3>
      <p className="help">HubDesk runs GGUF models itself with llama.cpp: no Ollama needed.</p>
      {body}
    </section>
  );
}
