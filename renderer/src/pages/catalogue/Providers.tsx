import type { ProviderMappingEntry } from '@shared/model-record';

/** The inference providers the Hub maps this model to, with their status. */
export function Providers({ providers }: { providers: ProviderMappingEntry[] }) {
  return (
    <section className="card cat-section" data-testid="model-providers">
      <h2>Inference providers</h2>
      <table className="table cat-table">
        <thead>
          <tr>
            <th>Provider</th>
            <th>Provider model id</th>
            <th>Task</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody>
          {providers.map((p) => (
            <tr key={p.provider}>
              <td>{p.provider}</td>
              <td className="mono small">{p.providerId}</td>
              <td>{p.task}</td>
              <td>
                <span className={`badge ${p.status === 'live' ? 'badge-ok' : 'badge-warn'}`}>{p.status}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
