import type { ReactNode } from 'react';

/** Card metadata that is noise as a field (widgets, eval tables, gating forms). */
const SKIP =
  /^(widget|model-index|model_index|inference|extra_gated_.*|thumbnail|colorFrom|colorTo|pinned|configs|dataset_info)$/;
const MAX_ITEMS = 20;

function value(v: unknown): ReactNode | undefined {
  if (typeof v === 'string') return v.length > 300 ? `${v.slice(0, 300)}…` : v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number')) {
    const shown = v.slice(0, MAX_ITEMS).map(String);
    return (
      <ul className="cat-chips">
        {shown.map((x) => (
          <li key={x} className="badge">
            {x}
          </li>
        ))}
        {v.length > MAX_ITEMS && <li className="muted small">and {v.length - MAX_ITEMS} more</li>}
      </ul>
    );
  }
  return undefined;
}

/** The card's YAML front matter (the Hub's parsed `cardData`) as fields, plain text only. */
export function CardFields({ cardData }: { cardData?: Record<string, unknown> }) {
  const rows = Object.entries(cardData ?? {})
    .filter(([k]) => !SKIP.test(k))
    .map(([k, v]) => [k, value(v)] as const)
    .filter((r): r is readonly [string, ReactNode] => r[1] !== undefined);
  if (rows.length === 0) return null;
  return (
    <dl className="cat-facts repo-fields" data-testid="card-fields" aria-label="Card metadata">
      {rows.map(([k, v]) => (
        <div key={k} className="repo-field" data-field={k}>
          <dt className="mono small">{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}
