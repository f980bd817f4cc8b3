import { expect, it, vi } from 'vitest';
import { heldMain as main } from '../helpers/held-main';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
const { useHubSearch } = await import('../../renderer/src/store/hub-search');

it("the task filter is `task` in the app, as in the embedded catalogue's, and reaches main as the Hub's pipeline_tag", async () => {
  main.reset();
  useHubSearch.getState().search('whisper');
  useHubSearch.getState().setFilters({ task: 'automatic-speech-recognition', sdk: 'gradio' });
  await vi.waitFor(() => expect(main.waiting('hub.search')).toHaveLength(6));
  const input = (kind: string) => main.waiting('hub.search').findLast((c) => c.input.kind === kind)!.input;
  expect(input('models')).toEqual({
    kind: 'models',
    sort: 'trending',
    search: 'whisper',
    pipeline_tag: 'automatic-speech-recognition',
  });
  expect(input('datasets')).toMatchObject({ pipeline_tag: 'automatic-speech-recognition' });
  // Spaces have no task: only their SDK goes.
  expect(input('spaces')).toEqual({ kind: 'spaces', sort: 'trending', search: 'whisper', sdk: 'gradio' });
});
