// @vitest-environment jsdom
import { beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('../../renderer/src/api', () => import('../helpers/held-main').then((m) => m.mockedApi()));
// The idle queue, as the app would hand it to lib/idle-preload (never run here).
const queued = vi.hoisted(() => [] as (() => Promise<unknown>)[]);
vi.mock('../../renderer/src/lib/idle-preload', async (original) => ({
  ...(await original<typeof import('../../renderer/src/lib/idle-preload')>()),
  preloadWhenIdle: (load: () => Promise<unknown>) => void queued.push(load),
}));

beforeAll(() => {
  location.hash = '#/chat'; // the address the app opens on
});

describe('start-up preloads: one list, run when the app asks, never as a side effect of an import', () => {
  it('importing the app and its pages starts nothing; startUp loads the opening page and queues the rest in order', async () => {
    await import('../../renderer/src/app/App');
    await import('../../renderer/src/pages/catalogue/CataloguePage');
    const { lazyPages } = await import('../../renderer/src/app/lazy-pages');
    const { details } = await import('../../renderer/src/pages/catalogue/DetailPages');
    const openChat = vi.spyOn(lazyPages.chat, 'preload').mockResolvedValue({} as never);
    expect(queued).toEqual([]);

    const { startUp } = await import('../../renderer/src/app/startup');
    expect(openChat).not.toHaveBeenCalled();
    startUp();
    expect(openChat).toHaveBeenCalledTimes(1);
    expect(queued).toEqual([
      details.model.preload,
      details.task.preload,
      expect.any(Function), // Chat, with its list of chats
      lazyPages.models.preload,
      lazyPages.settings.preload,
      lazyPages.tools.preload,
      lazyPages.compare.preload,
    ]);
  });
});
