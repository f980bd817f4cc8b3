// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PageBoundary } from '../../renderer/src/components/PageBoundary';
import { lazyComponent } from '../../renderer/src/lib/lazy-component';

afterEach(cleanup);

function Thrower({ what }: { what: string }): never {
  throw new Error(what);
}

describe('PageBoundary: one page failing leaves the rest of the app', () => {
  it('a render that throws shows what happened and a way out; the page beside it stays', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined); // React reports the caught error
    render(
      <>
        <nav>Sidebar</nav>
        <PageBoundary key="models">
          <Thrower what="Cannot read the list" />
        </PageBoundary>
      </>,
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toMatch(/This page ran into a problem/);
    expect(alert.textContent).toMatch(/Cannot read the list\. Reload to start this page again/);
    expect(screen.getByRole('button', { name: 'Reload HubDesk' })).toBeTruthy();
    expect(screen.getByText('Sidebar')).toBeTruthy();
  });

  it("a page's code that cannot be loaded says so, and going to another page starts clean", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const broken = lazyComponent(
      () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/ToolsPage-x.js')),
      (m: { Page: () => null }) => m.Page,
    );
    const { rerender } = render(
      <PageBoundary key="tools">
        <Suspense fallback={<p>Loading…</p>}>
          <broken.Component />
        </Suspense>
      </PageBoundary>,
    );
    expect((await screen.findByRole('alert')).textContent).toMatch(/This page’s code could not be loaded/);
    rerender(
      <PageBoundary key="settings">
        <p>Settings page</p>
      </PageBoundary>,
    );
    expect(screen.getByText('Settings page')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
