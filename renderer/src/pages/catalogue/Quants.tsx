import type { GgufQuant } from '@shared/contract/hub-repo';
import { formatBytes } from '../../lib/format';
import { hrefFor } from '../../store/route';

/** A GGUF repo's quantizations: pick one for the snippets and "Run locally with Ollama". */
export function Quants({
  id,
  quants,
  picked,
  onPick,
}: {
  id: string;
  quants: GgufQuant[];
  picked?: string;
  onPick(q: string): void;
}) {
  return (
    <section className="card cat-section" data-testid="model-quants">
      <h2>
        GGUF quantizations <span className="badge">{quants.length}</span>
      </h2>
      <table className="table cat-table">
        <thead>
          <tr>
            <th className="cat-radio" aria-label="Pick" />
            <th>Quantization</th>
            <th>Files</th>
            <th className="num">Size</th>
          </tr>
        </thead>
        <tbody>
          {quants.map((q) => (
            <tr key={q.label} className={picked === q.label ? 'cat-picked' : undefined}>
              <td className="cat-radio">
                <input
                  type="radio"
                  name="gguf-quant"
                  aria-label={q.label}
                  checked={picked === q.label}
                  onChange={() => onPick(q.label)}
                />
              </td>
              <td className="mono">{q.label}</td>
              <td className="mono small muted">{q.files.length === 1 ? q.files[0] : `${q.files.length} files`}</td>
              <td className="num">{q.size !== undefined ? formatBytes(q.size) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {picked && (
        <p className="cat-actions">
          <a
            className="btn btn-primary"
            href={hrefFor('models', 'pull', `hf.co/${id}:${picked}`)}
            data-testid="run-ollama"
          >
            Run locally with Ollama
          </a>
          <span className="mono small muted">
            hf.co/{id}:{picked}
          </span>
        </p>
      )}
    </section>
  );
}
