import type { ReactNode } from 'react';
import { hrefFor } from '../../store/route';

export type CatalogueKind = 'task' | 'library' | 'model' | 'dataset' | 'app';

/** `#/catalogue/<kind>/<id>`: the id is one encoded segment, so model ids keep their slash. */
export function catalogueHref(kind: CatalogueKind, id: string): string {
  return hrefFor('catalogue', kind, id);
}

export function CatLink({ kind, id, children }: { kind: CatalogueKind; id: string; children?: ReactNode }) {
  return <a href={catalogueHref(kind, id)}>{children ?? id}</a>;
}

export function hubUrl(kind: 'model' | 'dataset' | 'app', id: string): string {
  const path = kind === 'model' ? '' : kind === 'dataset' ? 'datasets/' : 'spaces/';
  return `https://huggingface.co/${path}${id.split('/').map(encodeURIComponent).join('/')}`;
}

export function BackLink() {
  return (
    <a className="cat-back" href={hrefFor('catalogue')}>
      ← Catalogue
    </a>
  );
}
