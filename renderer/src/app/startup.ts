import { preloadWhenIdle } from '../lib/idle-preload';
import { detailOf, details } from '../pages/catalogue/DetailPages';
import { useRoute } from '../store/route';
import { lazyPage, lazyPages } from './lazy-pages';

/**
 * What the app loads at start-up beyond its first screen, in one list. The first calls to main are not here: they go
 * out before the app's code is even evaluated (first-calls.ts). `launch`: started as soon as the app's code is in,
 * beside those calls; `idle`: queued for when the app has been idle a while after its first render
 * (lib/idle-preload.ts), in this order, so a first visit does not wait for its chunk.
 */
type StartupLoad =
  { when: 'launch'; load: () => Promise<unknown> | undefined } | { when: 'idle'; load: () => Promise<unknown> };

const startup: StartupLoad[] = [
  // The page the address opens on, when its code is not in the first chunk (the catalogue's landing is).
  { when: 'launch', load: () => lazyPage(useRoute.getState().page)?.preload() },
  // Likewise a catalogue detail page the address opens on (a model, a task…).
  {
    when: 'launch',
    load: () => {
      const detail = detailOf(useRoute.getState());
      return detail && details[detail.kind].preload();
    },
  },
  // A model page (and its workbench, not its editor) and a task page are where the catalogue leads first.
  { when: 'idle', load: details.model.preload },
  { when: 'idle', load: details.task.preload },
  // Chat next, its list of chats asked for too, so the sidebar is full on the first visit.
  { when: 'idle', load: () => lazyPages.chat.preload().then((m) => m.warmChat()) },
  { when: 'idle', load: lazyPages.models.preload },
  { when: 'idle', load: lazyPages.settings.preload },
  { when: 'idle', load: lazyPages.tools.preload },
  { when: 'idle', load: lazyPages.compare.preload },
];

/** Runs the list: main.tsx calls it once, when the app's code has loaded. */
export function startUp(): void {
  for (const entry of startup) {
    if (entry.when === 'idle') preloadWhenIdle(entry.load);
    else void entry.load()?.catch(() => undefined); // the page's own render tries again and shows the error
  }
}
