import { Component, type ReactNode } from 'react';
import { ErrorState } from './States';

interface State {
  error?: Error;
}

/**
 * Keeps a page's failure to that page: its code that could not be loaded (the server restarted with a new build, a
 * dropped connection in the web mode) or a render that threw shows an error with a way out, and the sidebar, the
 * status bar and the other pages stay usable. Give it a `key` per page so that going elsewhere starts clean.
 */
export class PageBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = {};

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    // A module that failed to load stays failed in this window: reloading is the way to fetch it again.
    const chunk = /dynamically imported module|Importing a module script failed|Unable to preload/i.test(error.message);
    return (
      <ErrorState
        title={chunk ? 'This page’s code could not be loaded' : 'This page ran into a problem'}
        error={{
          code: chunk ? 'unavailable' : 'internal',
          message: chunk
            ? 'HubDesk could not fetch this part of the app (was the server restarted or the connection lost?). Reload to fetch it again; other pages still work.'
            : `${error.message}. Reload to start this page again; other pages still work.`,
        }}
        action={
          <button className="btn btn-primary" onClick={() => location.reload()}>
            Reload HubDesk
          </button>
        }
      />
    );
  }
}
