import type { Handlers } from './router';
import { isAllowedExternal } from './services/external';
import type { Services } from './services';
import { AppError } from '@shared/errors';

/** The contract's calls, each mapped to the service that does the work. */
export function createHandlers(s: Services): Handlers {
  return {
    'app.info': () => s.info,
    'app.openExternal': async ({ url }) => {
      if (!isAllowedExternal(url))
        throw new AppError('forbidden', `Links to ${new URL(url).host} are not opened by HubDesk.`);
      if (!s.openExternal) return { opened: false };
      await s.openExternal(url);
      return { opened: true };
    },
    'settings.get': () => s.settings.view(),
    'settings.update': (patch) => s.settings.update(patch),
    'secrets.set': ({ name, value }) => {
      s.secrets.set(name, value);
      s.log.info('secret set', { name });
      return s.settings.view();
    },
    'secrets.clear': ({ name }) => {
      s.secrets.clear(name);
      s.log.info('secret cleared', { name });
      return s.settings.view();
    },
    'ollama.status': () => s.ollama.status(),
    'ollama.list': () => s.ollama.list(),
    'ollama.pull': (input, ctx) => s.ollama.pull(input, ctx),
  };
}
