import { Suspense } from 'react';
import { lazyComponent } from '../../lib/lazy-component';
import { Loading } from '../../components/States';
import type { SnippetWorkbenchProps } from './types';

/** The workbench's code (Monaco inside it loads later): loaded with the model page's "Use this model", not the app. */
const workbench = lazyComponent(
  () => import('./Workbench'),
  (m) => m.default,
);
const Workbench = workbench.Component;
export const loadWorkbench = workbench.preload;

/** "Use this model": every usage snippet for the model, in editable panes to copy or save into a project. */
export function SnippetWorkbench(props: SnippetWorkbenchProps) {
  return (
    <Suspense fallback={<Loading label="Loading snippets…" />}>
      <Workbench {...props} />
    </Suspense>
  );
}
