import { useCallback, useEffect, useState } from 'react';
import type { LocalModel } from '@shared/contract/ollama';
import type { AppError } from '@shared/errors';
import { api } from '../../api';
import { Empty, ErrorState, Loading } from '../../components/States';
import { formatAge, formatBytes } from '../../lib/format';
import { hrefFor } from '../../store/route';

export function ModelsPage() {
  const [models, setModels] = useState<LocalModel[]>();
  const [error, setError] = useState<AppError>();

  const load = useCallback(async () => {
    setError(undefined);
    try {
      setModels((await api.call('ollama.list', {})).models);
    } catch (e) {
      setError(e as AppError);
    }
  }, []);
  useEffect(() => void load(), [load]);

  return (
    <section className="page">
      <header className="page-header">
        <h1>Local models</h1>
        <button className="btn" onClick={() => void load()}>
          Refresh
        </button>
      </header>
      {error ? (
        <ErrorState error={error} title="Could not list local models" onRetry={() => void load()} />
      ) : !models ? (
        <Loading label="Asking Ollama for its models…" />
      ) : models.length === 0 ? (
        <Empty title="Pull your first model">
          Ollama has no models yet. Find one in the <a href={hrefFor('catalogue')}>catalogue</a> — small ones such as
          llama3.2 or qwen3 run on most machines.
        </Empty>
      ) : (
        <table className="table" data-testid="models-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Family</th>
              <th>Parameters</th>
              <th>Quantization</th>
              <th className="num">Size</th>
              <th>Modified</th>
            </tr>
          </thead>
          <tbody>
            {models.map((m) => (
              <tr key={m.name}>
                <td className="mono">{m.name}</td>
                <td>{m.details.family ?? '—'}</td>
                <td>{m.details.parameter_size ?? '—'}</td>
                <td>{m.details.quantization_level ?? '—'}</td>
                <td className="num">{formatBytes(m.size)}</td>
                <td>{formatAge(m.modified_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
