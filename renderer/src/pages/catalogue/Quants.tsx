import { useId, useState, type SyntheticEvent } from 'react';
import { gb, verdictLabels, type FitResult } from '@shared/fit';
import { formatBytes } from '../../lib/format';
import { firstGgufFile } from '../../lib/gguf-files';
import { hrefFor } from '../../store/route';
import { CompareQuants } from './CompareQuants';
import { DownloadInline } from './DownloadInline';
import { PullInline } from './PullInline';
import type { FitPlan } from '../../hooks/fit';
import './fit.css';

const CONTEXTS = [2048, 4096, 8192, 16384, 32768, 65536, 131072];

/** Above when the tip would run past the bottom of the scrolling page and there is more room above. */
function tipGoesAbove(badge: HTMLElement): boolean {
  const tip = badge.querySelector<HTMLElement>('.fit-tip');
  const r = badge.getBoundingClientRect();
  const page = badge.closest('.content')?.getBoundingClientRect() ?? { top: 0, bottom: window.innerHeight };
  const below = Math.min(page.bottom, window.innerHeight) - r.bottom;
  const above = r.top - Math.max(page.top, 0);
  // The tip shows on :hover and :focus, so it has its height here; 160 px is a long explanation, as a fallback.
  return (tip?.offsetHeight || 160) + 8 > below && above > below;
}

/**
 * A verdict with its short line under it; the full explanation shows on hover and on keyboard focus (the badge is a
 * tab stop), below the badge or above it where the page has no room (first and last rows alike).
 */
function FitBadge({ fit }: { fit: FitResult }) {
  const tip = useId();
  const [above, setAbove] = useState(false);
  const place = (e: SyntheticEvent<HTMLElement>) => setAbove(tipGoesAbove(e.currentTarget));
  return (
    <>
      <span
        className={`fit-badge fit-${fit.verdict}`}
        tabIndex={0}
        aria-describedby={tip}
        data-testid="fit-badge"
        data-verdict={fit.verdict}
        data-tip={above ? 'above' : 'below'}
        onMouseEnter={place}
        onFocus={place}
      >
        {verdictLabels[fit.verdict]}
        <span role="tooltip" id={tip} className="fit-tip tip-popover">
          {fit.explanation}
        </span>
      </span>
      <span className="fit-summary small muted" data-testid="fit-summary">
        {fit.summary}
      </span>
    </>
  );
}

function HardwareLine({ plan }: { plan: FitPlan }) {
  if (plan.hardwareError)
    return <span className="field-error">Hardware unknown ({plan.hardwareError.message}): no fit verdicts.</span>;
  const h = plan.hardware;
  if (!h) return <span className="muted">Checking this machine…</span>;
  const gpu = h.effective.gpus.reduce<(typeof h.effective.gpus)[number] | undefined>(
    (m, g) => (!m || g.vramTotal > m.vramTotal ? g : m),
    undefined,
  );
  return (
    <span className="fit-hardware" data-testid="fit-hardware">
      {h.source === 'override' ? 'Your hardware (set in Settings): ' : 'This machine: '}
      {gb(h.effective.ramTotal)} RAM
      {gpu
        ? `, ${gpu.name} with ${gb(gpu.vramTotal)} ${h.effective.unified ? 'GPU-usable unified memory' : 'VRAM'}`
        : ', no GPU'}
      . <a href={hrefFor('settings')}>Change</a>
    </span>
  );
}

/**
 * A GGUF repo's quantizations with a fit verdict each: pick one for the snippets, "Run locally with Ollama" and
 * "Download and run in HubDesk" (the built-in engine).
 */
export function Quants({
  id,
  plan,
  picked,
  onPick,
}: {
  id: string;
  plan: FitPlan;
  picked?: string;
  onPick(q: string): void;
}) {
  const pickedFile = firstGgufFile(plan.rows.find((q) => q.label === picked)?.files ?? []);
  const ctxOptions = CONTEXTS.filter((c) => !plan.maxCtx || c <= plan.maxCtx);
  if (!ctxOptions.includes(plan.ctx)) ctxOptions.push(plan.ctx);
  return (
    <section className="card cat-section" data-testid="model-quants">
      <h2>
        GGUF quantizations <span className="badge">{plan.rows.length}</span>
      </h2>
      <div className="fit-bar small">
        <HardwareLine plan={plan} />
        <label className="fit-ctx">
          Context length{' '}
          <select
            value={plan.ctx}
            onChange={(e) => plan.setCtx(Number(e.target.value))}
            data-testid="fit-context"
            aria-describedby="fit-ctx-help"
          >
            {ctxOptions
              .sort((a, b) => a - b)
              .map((c) => (
                <option key={c} value={c}>
                  {c.toLocaleString('en')} tokens
                </option>
              ))}
          </select>
        </label>
      </div>
      <p className="help" id="fit-ctx-help">
        A longer context needs a larger KV cache. Hover or focus a verdict to see how it was estimated.
        {plan.headerNote && (
          <>
            {' '}
            <span data-testid="fit-estimate-note">{plan.headerNote}</span>
          </>
        )}
      </p>
      <table className="table cat-table fit-table">
        <thead>
          <tr>
            <th className="cat-radio" aria-label="Pick" />
            <th>Quantization</th>
            <th>Files</th>
            <th className="num">Size</th>
            <th>Fit on this machine</th>
          </tr>
        </thead>
        <tbody>
          {plan.rows.map((q) => (
            <tr
              key={q.label}
              className={picked === q.label ? 'cat-picked' : undefined}
              data-testid="quant-row"
              data-quant={q.label}
            >
              <td className="cat-radio">
                <input
                  type="radio"
                  name="gguf-quant"
                  aria-label={q.label}
                  checked={picked === q.label}
                  onChange={() => onPick(q.label)}
                />
              </td>
              <td className="mono">
                {q.label}
                {q.label === plan.defaultLabel && (
                  <>
                    <span className="badge fit-default" data-testid="default-quant">
                      default
                    </span>
                    {plan.defaultWhy && (
                      <span className="fit-why small muted" data-testid="default-why">
                        {plan.defaultWhy}
                      </span>
                    )}
                  </>
                )}
              </td>
              <td className="mono small muted">{q.files.length === 1 ? q.files[0] : `${q.files.length} files`}</td>
              <td className="num">{q.size !== undefined ? formatBytes(q.size) : '—'}</td>
              <td>
                {q.fit ? (
                  <FitBadge fit={q.fit} />
                ) : (
                  <span className="muted small">{plan.hardware ? 'size unknown' : '…'}</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {picked && <PullInline name={`hf.co/${id}:${picked}`} />}
      {pickedFile && <DownloadInline key={pickedFile} repo={id} file={pickedFile} />}
      <CompareQuants repo={id} plan={plan} />
    </section>
  );
}
