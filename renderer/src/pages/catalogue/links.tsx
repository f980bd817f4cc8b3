import type { ReactNode } from 'react';
import { hubKindOfPage, hubWebPath, type HubPageKind } from '@shared/hub-kinds';
import { catalogueHref, hrefFor, type CatalogueKind } from '../../store/route';

export function CatLink({ kind, id, children }: { kind: CatalogueKind; id: string; children?: ReactNode }) {
  return <a href={catalogueHref(kind, id)}>{children ?? id}</a>;
}

export function hubUrl(kind: HubPageKind, id: string): string {
  return `https://huggingface.co/${hubWebPath(hubKindOfPage(kind), id)}`;
}

export function BackLink() {
  return (
    <a className="cat-back" href={hrefFor('catalogue')}>
      ← Catalogue
    </a>
  );
}
