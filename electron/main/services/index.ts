import type { Services, ServicesOptions } from './app-services';
import { CatalogueService } from './catalogue/service';
import { composeConversations } from './compose/conversations';
import { composeKeysAndNetwork } from './compose/keys-and-network';
import { composeModels } from './compose/models';
import { FalService } from './fal/service';

export type { Services, ServicesOptions } from './app-services';

/**
 * Builds every plain-Node service once; the Electron app, the web mode, the CLI and the tests all start here. Each
 * domain is wired in `compose/`: the keys and the network first, then the models, then what people do with them.
 */
export function createServices(opts: ServicesOptions): Services {
  const base = composeKeysAndNetwork(opts);
  const models = composeModels(opts, base);
  const work = composeConversations(opts, base, models);
  const { settings, keys, log } = base;
  return {
    info: {
      name: 'HubDesk',
      version: opts.version,
      mode: opts.mode,
      platform: process.platform,
      dataDir: opts.dataDir,
    },
    log,
    secrets: base.secrets,
    settings,
    keys,
    network: base.network,
    ollama: models.ollama,
    snippets: work.snippets,
    fal: new FalService({
      restBase: () => settings.get().falRestBase,
      key: () => keys.forUrl('falKey', settings.get().falRestBase),
      withheld: () => keys.withheld('falKey', settings.get().falRestBase),
      fetch: base.falFetch,
      log,
    }),
    catalogue: new CatalogueService(),
    hub: models.hub,
    endpoints: models.endpoints,
    chat: work.chat,
    compare: work.compare,
    hardware: models.hardware,
    local: models.local,
    engines: work.engines,
    documents: work.documents,
    ggufHeaders: models.ggufHeaders,
    openExternal: opts.openExternal,
    mcp: work.mcp,
    dispose: async () => {
      await work.dispose();
      await models.local.dispose();
      await base.network.close();
    },
  };
}
