import type { LocalModel } from '@shared/contract/ollama';
import { ChatWithModel } from '../../features/engines/ChatWithModel';
import { formatAge, formatBytes } from '../../lib/format';

type SortKey = 'name' | 'family' | 'params' | 'quant' | 'size' | 'modified';

/** "3.2B" / "751.63M" → a number of parameters, for sorting. */
const paramCount = (s?: string) => {
  const m = /^([\d.]+)\s*([KMBT]?)/i.exec(s ?? '');
  if (!m) return 0;
  return Number(m[1]) * ({ K: 1e3, M: 1e6, B: 1e9, T: 1e12 }[m[2].toUpperCase()] ?? 1);
};

const sorters: Record<SortKey, (a: LocalModel, b: LocalModel) => number> = {
  name: (a, b) => a.name.localeCompare(b.name),
  family: (a, b) => (a.details.family ?? '').localeCompare(b.details.family ?? ''),
  params: (a, b) => paramCount(a.details.parameter_size) - paramCount(b.details.parameter_size),
  quant: (a, b) => (a.details.quantization_level ?? '').localeCompare(b.details.quantization_level ?? ''),
  size: (a, b) => a.size - b.size,
  modified: (a, b) => Date.parse(a.modified_at) - Date.parse(b.modified_at),
};

const columns: { key: SortKey; label: string; num?: boolean }[] = [
  { key: 'name', label: 'Name' },
  { key: 'family', label: 'Family' },
  { key: 'params', label: 'Parameters' },
  { key: 'quant', label: 'Quantization' },
  { key: 'size', label: 'Size', num: true },
  { key: 'modified', label: 'Modified' },
];

/** The column the table is sorted by, and which way. */
export interface ModelSort {
  key: SortKey;
  desc: boolean;
}

/** `list` sorted in place by `sort`, ties by name. */
export function sortModels(list: LocalModel[], sort: ModelSort): LocalModel[] {
  const cmp = sorters[sort.key];
  return list.sort((a, b) => (sort.desc ? -cmp(a, b) : cmp(a, b)) || a.name.localeCompare(b.name));
}

/** The local models, one row each, sortable by any column; a name opens its details. */
export function ModelTable({
  models,
  sort,
  onSort,
  onSelect,
  onDelete,
}: {
  models: LocalModel[];
  sort: ModelSort;
  onSort: (fn: (s: ModelSort) => ModelSort) => void;
  onSelect: (name: string) => void;
  onDelete: (model: LocalModel) => void;
}) {
  return (
    <table className="table models-table" data-testid="models-table">
      <thead>
        <tr>
          {columns.map((c) => (
            <th
              key={c.key}
              className={c.num ? 'num' : undefined}
              aria-sort={sort.key === c.key ? (sort.desc ? 'descending' : 'ascending') : undefined}
            >
              <button
                className="th-sort"
                onClick={() => onSort((s) => ({ key: c.key, desc: s.key === c.key ? !s.desc : c.key === 'modified' }))}
              >
                {c.label}
                <span className="sort-mark" aria-hidden="true">
                  {sort.key === c.key ? (sort.desc ? '▼' : '▲') : ''}
                </span>
              </button>
            </th>
          ))}
          <th>
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {models.map((m) => (
          <tr key={m.name} data-model={m.name}>
            <td className="mono">
              <button className="link-button" onClick={() => onSelect(m.name)}>
                {m.name}
              </button>
            </td>
            <td>{m.details.family || '—'}</td>
            <td>{m.details.parameter_size || '—'}</td>
            <td>{m.details.quantization_level || '—'}</td>
            <td className="num">{formatBytes(m.size)}</td>
            <td title={m.modified_at}>{formatAge(m.modified_at)}</td>
            <td className="row-actions">
              <ChatWithModel
                model={m.name}
                label="Chat"
                className="btn btn-ghost btn-sm"
                testid="row-chat"
                compact
                aria-label={`Chat with ${m.name}`}
              />
              <button className="btn btn-ghost btn-sm row-details" onClick={() => onSelect(m.name)}>
                Details
              </button>
              <button
                className="btn btn-ghost btn-sm btn-danger"
                onClick={() => onDelete(m)}
                aria-label={`Delete ${m.name}`}
              >
                Delete
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
