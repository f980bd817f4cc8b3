import { join } from 'node:path';
import type { ServicesOptions } from '../app-services';
import { ChatService } from '../chat/service';
import { ChatStore } from '../chat/storage/store';
import { CompareRunner } from '../compare/runner';
import { CompareService } from '../compare/service';
import { installedEmbedders } from '../documents/choose-embedder';
import { createEmbedder } from '../documents/embedder';
import { IndexStore } from '../documents/index-store';
import { DocumentsService } from '../documents/service';
import { Engines, type EngineOptions } from '../engines/registry';
import type { McpService } from '../mcp/manager';
import { SnippetService } from '../snippets/service';
import type { KeysAndNetwork } from './keys-and-network';
import type { Models } from './models';

/**
 * What people do with the models: snippets, the engines every reply goes through, chats with their documents and
 * tools, and Compare. MCP is built on first use (nothing MCP starts or loads at app start-up).
 */
export function composeConversations(opts: ServicesOptions, base: KeysAndNetwork, models: Models) {
  const { settings, keys, secrets, log } = base;
  const { ollama, local, endpoints, hardware } = models;
  let mcpLoading: Promise<McpService> | undefined;
  const mcp = () =>
    (mcpLoading ??= import('../mcp/manager').then(({ McpService }) => {
      const service = new McpService({
        ...opts.mcp,
        file: join(opts.dataDir, 'mcp.json'),
        secretsFile: join(opts.dataDir, 'mcp-secrets.json'),
        cipher: opts.cipher,
        version: opts.version,
        log,
        fetch: base.network.fetch,
      });
      base.addSecrets(() => service.secrets.values());
      return service;
    }));
  const snippets = new SnippetService({
    log,
    ollamaHost: () => settings.get().ollamaHost,
    billTo: () => settings.get().billTo,
    // The token is written into code only for an address it is bound to.
    hfToken: (url) => keys.forUrl('hfToken', url),
    hfTokenSet: () => !!secrets.get('hfToken'),
    saveDialog: opts.saveDialog,
  });
  // The engines' options, once: the chat's replies and Compare's panes reach the same servers the same way.
  const engineOptions: EngineOptions = {
    ollama,
    log,
    router: () => ({ routerUrl: settings.get().routerUrl, billTo: settings.get().billTo }),
    hfToken: () => keys.forUrl('hfToken', settings.get().routerUrl),
    routerFetch: base.hfFetch,
    retryBaseMs: opts.chat?.retryBaseMs,
    providerTimeoutMs: opts.chat?.providerTimeoutMs,
    endpoints,
    endpointTimeoutMs: opts.chat?.endpointTimeoutMs,
    streamLimits: opts.chat?.streamLimits,
    local,
    hfTokenWithheld: () => keys.withheld('hfToken', settings.get().routerUrl),
    snippets: () => snippets,
  };
  // One registry of engines: the chat's replies, Compare's panes and Documents' embeddings ask the same engines.
  const engines = new Engines(engineOptions);
  const chatStore = new ChatStore(
    { file: join(opts.dataDir, 'chats.sqlite'), legacyDir: join(opts.dataDir, 'chats') },
    log,
  );
  const documents = new DocumentsService({
    index: new IndexStore(chatStore),
    embed: createEmbedder(engines),
    installed: () => installedEmbedders({ ollama: () => ollama.list(), local: () => local.library.list() }),
    log,
    uploadsDir: join(opts.dataDir, 'documents', 'uploads'),
    openDialog: opts.openDialog,
    ...opts.documents,
  });
  // Indexing left unfinished by the last run goes on a little after launch (never in the first call's way).
  const docsStart = setTimeout(
    () => void documents.start().catch((e: Error) => log.warn('documents not resumed', { message: e.message })),
    opts.documents?.startDelayMs ?? 3_000,
  );
  docsStart.unref();
  const chat = new ChatService({
    ...engineOptions,
    engines,
    store: chatStore,
    ollamaApiKey: () => keys.forUrl('ollamaApiKey', base.webBase()),
    webFetch: base.ollamaKeyFetch,
    webBase: base.webBase,
    checkpointMs: opts.chat?.checkpointMs,
    maxToolRounds: opts.chat?.maxToolRounds,
    toolTimeoutMs: opts.chat?.toolTimeoutMs,
    mcp,
    retrieval: documents,
  });
  const compare = new CompareService({
    chat: chatStore,
    runner: new CompareRunner({ engines, log, hardware }),
    hardware,
    engines,
    log,
  });
  return {
    snippets,
    engines,
    documents,
    chat,
    compare,
    mcp,
    dispose: async () => {
      clearTimeout(docsStart);
      await documents.dispose();
      if (mcpLoading) await (await mcpLoading).dispose();
    },
  };
}
