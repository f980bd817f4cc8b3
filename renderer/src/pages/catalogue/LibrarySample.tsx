import type { CatalogueLibrary } from '@shared/contract/catalogue';
import type { Snippet } from '@shared/contract/snippets';
import type { AppError } from '@shared/errors';
import type { ModelRecord } from '@shared/model-record';
import { Loading } from '../../components/States';
import { useLibrarySample } from '../../hooks/catalogue';
import { librarySampleModel } from '../../lib/library-sample';
import { useCatalogue } from '../../store/catalogue';
import { CatLink } from './links';
import './fit.css';

type State =
  { state: 'loading' } | { state: 'ok'; snippet?: Snippet; notice?: string } | { state: 'error'; error: AppError };

/**
 * A sample of the library's own snippet generator (MODEL_LIBRARIES_UI_ELEMENTS, run by main's engine): on an
 * embedded model of the library when there is one (lib/library-sample.ts), else on a placeholder repo id.
 */
export function LibrarySample({ lib }: { lib: CatalogueLibrary }) {
  const models = useCatalogue((s) => s.view?.models);
  const sample = librarySampleModel(lib.id, models?.values() ?? []);
  const record: ModelRecord = sample ?? { id: 'your-org/your-model', library_name: lib.id, tags: [lib.id] };
  const query = useLibrarySample(record, lib.hasSnippets);
  let out: State = { state: 'loading' };
  if (query.state === 'error') out = { state: 'error', error: query.error as AppError };
  if (query.state === 'ok') {
    const section = query.data.sections[0];
    // A generator may open with a warning snippet ("Type of model unknown"): show a real one when there is one.
    const snippet = section?.snippets.find((x) => !x.content.startsWith('# ⚠️')) ?? section?.snippets[0];
    out = { state: 'ok', snippet, notice: section?.error ?? section?.notice };
  }

  if (!lib.hasSnippets) return null;
  return (
    <section className="card cat-section" data-testid="library-sample">
      <h2>Sample snippet</h2>
      <p className="help">
        What the library&apos;s own generator writes for{' '}
        {sample ? (
          <CatLink kind="model" id={sample.id}>
            {sample.id}
          </CatLink>
        ) : (
          <span className="mono">{record.id}</span>
        )}
        {sample ? '' : ' (replace it with a model of yours)'}.
      </p>
      {out.state === 'loading' && <Loading label="Generating…" />}
      {out.state === 'error' && <p className="field-error">{out.error.message}</p>}
      {out.state === 'ok' &&
        (out.snippet ? (
          <>
            <pre className="cat-sample mono small" data-testid="library-sample-code">
              <code>{out.snippet.content}</code>
            </pre>
            {out.snippet.content.startsWith('# ⚠️') && (
              <p className="help">
                The generator needs more details than the embedded task data holds (for transformers: the model&apos;s
                class from the Hub). A model page loaded from the Hub shows the full snippet.
              </p>
            )}
          </>
        ) : (
          <p className="muted">{out.notice ?? 'The generator wrote nothing for this model.'}</p>
        ))}
    </section>
  );
}
