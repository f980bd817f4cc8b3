// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SettingsView } from '@shared/contract/settings';
import { buildCatalogue } from '../../electron/main/services/catalogue/build';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { CataloguePage } = await import('../../renderer/src/pages/catalogue/CataloguePage');
const { catalogueView, useCatalogue } = await import('../../renderer/src/store/catalogue');
const { useSettings } = await import('../../renderer/src/store/settings');
const { PREPARE_MS } = await import('../../renderer/src/store/route');

const freshness = { source: 'cache' as const, fetchedAt: '2026-11-25T10:00:00.000Z' };
const catalogue = buildCatalogue('test');
const embeddedId = catalogue.models.find((m) => m.pipeline_tag === 'text-generation')!.id;
let n = 0;
/** A Hub-only model this window has not seen (the window's answers outlive a test). */
const hubOnlyId = () => `org/hub-only-${++n}`;
const href = (id: string) => `#/catalogue/model/${encodeURIComponent(id)}`;
const details = (id: string) => ({
  model: { id, tags: ['gguf'], pipeline_tag: 'text-generation', downloads: 1234, likes: 5 },
  quants: [],
  freshness,
});
const card = { markdown: '# The card\n\nHello from the card.', truncated: false, freshness };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every text the page has shown since the call, however briefly (React may replace a state within one task). */
function watchTexts() {
  const seen = new Set<string>();
  const mo = new MutationObserver(() => seen.add(document.body.textContent ?? ''));
  mo.observe(document.body, { subtree: true, childList: true, characterData: true });
  return { ever: (text: string) => [...seen].some((t) => t.includes(text)), stop: () => mo.disconnect() };
}

beforeAll(() => {
  useCatalogue.setState({ view: catalogueView(catalogue) });
  // Live access off: main answers from its cache (the held main answers as the test says) and the landing is the
  // embedded catalogue's task groups.
  useSettings.setState({ view: { values: { hubAccess: 'offline' }, secrets: [] } as unknown as SettingsView });
});
beforeEach(async () => {
  main.reset();
  location.hash = '#/catalogue';
  await sleep(0);
});
afterEach(cleanup);

describe('Opening a Hub repo page: the address waits briefly for its answers', () => {
  it('answers within the wait: the catalogue stays until the page appears complete, with no loading step', async () => {
    const id = hubOnlyId();
    render(<CataloguePage />);
    const landing = await screen.findByTestId('task-groups');
    const texts = watchTexts();
    location.hash = href(id);
    const model = await main.next('hub.model');
    const readme = await main.next('hub.readme');
    expect(model.input).toEqual({ id });
    expect(readme.input).toEqual({ kind: 'model', id });
    expect(landing.isConnected).toBe(true); // the old page is still shown while main answers
    await readme.answer(card);
    await model.answer(details(id));
    expect(await screen.findByTestId('model-id')).toHaveProperty('textContent', id);
    expect(await screen.findByText('Hello from the card.')).toBeTruthy();
    expect(screen.getByTestId('model-facts')).toBeTruthy();
    texts.stop();
    expect(texts.ever('Looking for this model')).toBe(false);
    expect(texts.ever('Loading the model card')).toBe(false);
  });

  it('a Hub-only dataset likewise: details and card in the first render of its page', async () => {
    const id = `org/dataset-${++n}`;
    render(<CataloguePage />);
    await screen.findByTestId('task-groups');
    const texts = watchTexts();
    location.hash = `#/catalogue/dataset/${encodeURIComponent(id)}`;
    const repo = await main.next('hub.repo');
    const readme = await main.next('hub.readme');
    expect(repo.input).toEqual({ kind: 'dataset', id });
    expect(screen.getByTestId('task-groups')).toBeTruthy();
    await repo.answer({ repo: { kind: 'dataset', id, tags: [], downloads: 42, likes: 3 }, freshness });
    await readme.answer(card);
    expect(await screen.findByText('Hello from the card.')).toBeTruthy();
    expect(screen.getByTestId('repo-stats')).toBeTruthy();
    texts.stop();
    expect(texts.ever('Loading the dataset from the Hub')).toBe(false);
  });

  it('a slow answer: after the wait the page shows its loading state, then the answer', async () => {
    const id = hubOnlyId();
    render(<CataloguePage />);
    await screen.findByTestId('task-groups');
    location.hash = href(id);
    const model = await main.next('hub.model');
    await sleep(PREPARE_MS + 50);
    expect(await screen.findByText('Looking for this model…')).toBeTruthy();
    expect(screen.queryByTestId('task-groups')).toBeNull();
    await model.answer(details(id));
    expect(await screen.findByTestId('model-facts')).toBeTruthy();
  });

  it('a newer address wins: the page asked first never replaces it', async () => {
    const id = hubOnlyId();
    render(<CataloguePage />);
    await screen.findByTestId('task-groups');
    location.hash = href(id);
    const model = await main.next('hub.model');
    location.hash = '#/catalogue/task/text-generation';
    expect(await screen.findByTestId('task-view')).toBeTruthy();
    await model.answer(details(id));
    await sleep(PREPARE_MS + 50);
    expect(screen.queryByTestId('model-view')).toBeNull();
    expect(location.hash).toBe('#/catalogue/task/text-generation');
  });

  it("a page's first visit waits for its code: no Suspense fallback, which React would hold on screen for 300 ms", async () => {
    await import('../../renderer/src/pages/catalogue/LibraryView'); // compiled by vitest now, not during the wait
    render(<CataloguePage />);
    await screen.findByTestId('task-groups');
    const texts = watchTexts();
    location.hash = '#/catalogue/library/transformers';
    expect(await screen.findByRole('heading', { name: 'Transformers' })).toBeTruthy();
    texts.stop();
    expect(texts.ever('Loading…')).toBe(false);
  });

  it('a model of the embedded catalogue opens at once, its Hub details joining it later', async () => {
    render(<CataloguePage />);
    await screen.findByTestId('task-groups');
    location.hash = href(embeddedId);
    const model = await main.next('hub.model');
    // Shown while main has not answered, well within the wait a Hub-only page would get.
    expect(await screen.findByTestId('model-id', undefined, { timeout: PREPARE_MS / 2 })).toHaveProperty(
      'textContent',
      embeddedId,
    );
    await model.answer(details(embeddedId));
    expect(await screen.findByTestId('model-facts')).toBeTruthy();
  });
});
