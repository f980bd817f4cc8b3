import { lazy, Suspense } from 'react';
import { Loading } from '../../components/States';
import type { SnippetWorkbenchProps } from './types';

// The workbench (and, inside it, Monaco) loads with the model page's "Use this model", not with the app.
const Workbench = lazy(() => import('./Workbench'));

/** "Use this model": every usage snippet for the model, in editable panes to copy or save into a project. */
export function SnippetWorkbench(props: SnippetWorkbenchProps) {
  return (
    <Suspense fallback={<Loading label="Loading snippets…" />}>
      <Workbench {...props} />
    </Suspense>
  );
}
