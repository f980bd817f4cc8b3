import type { ModelRecord } from '@shared/model-record';
import { ExternalLink } from '../../components/ExternalLink';
import { formatBytes, formatDate } from '../../lib/format';
import { hubUrlRewriter, repoWebPath } from '../../lib/hub-card-text';
import { catalogueHref } from '../../store/route';
import { useHubEndpoint } from '../../hooks/hub';

const fmtParams = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 2 });
const SPACES_SHOWN = 12;

function licenceOf(model: ModelRecord): { name?: string; link?: string } {
  const card = model.cardData ?? {};
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  const fromTag = model.tags.find((t) => t.startsWith('license:'))?.slice('license:'.length);
  const id = str(card.license) ?? fromTag;
  return {
    name: id === 'other' ? (str(card.license_name) ?? id) : (id ?? str(card.license_name)),
    link: str(card.license_link),
  };
}

/** Licence, gated state, parameters per dtype, GGUF metadata and the Spaces using the model. */
export function ModelFacts({ model }: { model: ModelRecord }) {
  const endpoint = useHubEndpoint();
  const hubPage = `${endpoint.replace(/\/+$/, '')}/${repoWebPath('model', model.id)}`;
  const licence = licenceOf(model);
  const licenceLink = licence.link ? hubUrlRewriter(endpoint, 'model', model.id)(licence.link, 'link') : null;
  const st = model.safetensors;
  const gg = model.gguf;
  const spaces = model.spaces ?? [];
  const prompt = model.cardData?.extra_gated_prompt;

  return (
    <>
      {model.gated && (
        <div className="card cat-note repo-gated" role="note" data-testid="model-gated">
          <strong>Gated model{model.gated === 'manual' ? ' (access approved by the authors)' : ''}.</strong> Its files
          download only after you accept its terms on the Hub, with a Hugging Face token of that account set in
          Settings; the snippets below need that token too.{' '}
          <ExternalLink href={hubPage} testId="gated-accept">
            Accept the terms on the Hub
          </ExternalLink>
          {typeof prompt === 'string' && <p className="muted small">{prompt.slice(0, 500)}</p>}
        </div>
      )}
      <dl className="card cat-facts repo-facts" data-testid="model-facts">
        <dt>Licence</dt>
        <dd data-testid="model-licence">
          {licence.name ? <span className="mono">{licence.name}</span> : <span className="muted">not stated</span>}
          {licenceLink && (
            <>
              {' · '}
              <ExternalLink href={licenceLink}>licence text</ExternalLink>
            </>
          )}
        </dd>
        {st && (
          <>
            <dt>Parameters</dt>
            <dd data-testid="model-params">
              {st.total !== undefined && <strong>{fmtParams.format(st.total)} </strong>}
              <span className="muted small">safetensors </span>
              {Object.entries(st.parameters).map(([dtype, n]) => (
                <span key={dtype} className="badge" title={`${n.toLocaleString('en')} parameters stored as ${dtype}`}>
                  {dtype} {fmtParams.format(n)}
                </span>
              ))}
            </dd>
          </>
        )}
        {gg && (
          <>
            <dt>GGUF</dt>
            <dd data-testid="model-gguf">
              {[
                gg.architecture && `architecture ${gg.architecture}`,
                gg.context_length !== undefined && `context ${gg.context_length.toLocaleString('en')} tokens`,
                gg.total !== undefined && `${fmtParams.format(gg.total)} parameters`,
              ]
                .filter(Boolean)
                .join(' · ') || <span className="muted">no metadata</span>}
            </dd>
          </>
        )}
        {model.createdAt && (
          <>
            <dt>Created</dt>
            <dd>{formatDate(model.createdAt)}</dd>
          </>
        )}
        {model.usedStorage !== undefined && (
          <>
            <dt>Storage on the Hub</dt>
            <dd>{formatBytes(model.usedStorage)}</dd>
          </>
        )}
        {spaces.length > 0 && (
          <>
            <dt>Spaces using it</dt>
            <dd data-testid="model-spaces">
              <ul className="cat-chips">
                {spaces.slice(0, SPACES_SHOWN).map((s) => (
                  <li key={s}>
                    <a className="mono small" href={catalogueHref('app', s)}>
                      {s}
                    </a>
                  </li>
                ))}
                {spaces.length > SPACES_SHOWN && (
                  <li className="muted small">and {(spaces.length - SPACES_SHOWN).toLocaleString('en')} more</li>
                )}
              </ul>
            </dd>
          </>
        )}
      </dl>
    </>
  );
}
