// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { expect, it, vi } from 'vitest';
import type { CatalogueView } from '../../renderer/src/store/catalogue';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { useHubSearch } = await import('../../renderer/src/store/hub-search');
const { HubFilters } = await import('../../renderer/src/pages/catalogue/HubFilters');

// Only the lists the filters read.
const view = { data: { tasks: [], libraries: [] } } as unknown as CatalogueView;

it("Spaces' sort shows the order sent to the Hub: likes when downloads was chosen on another tab", () => {
  useHubSearch.setState({ sort: 'downloads' });
  const { rerender } = render(<HubFilters view={view} kind="models" />);
  const sort = () => screen.getByRole('combobox', { name: 'Sort' }) as HTMLSelectElement;
  expect(sort().selectedOptions[0].textContent).toBe('Most downloads');
  rerender(<HubFilters view={view} kind="spaces" />);
  expect(sort().value).toBe('likes');
  expect(sort().selectedOptions[0].textContent).toBe('Most likes');
});
