import type { Handlers } from './router';
import { isAllowedExternal, loadExternalTargets } from './services/external';
import type { Services } from './services';
import { AppError } from '@shared/errors';
import { parseProxy } from './services/net/proxy-rules';
import { readPemFile } from './services/net/trust';

/** The contract's calls, each mapped to the service that does the work. */
export function createHandlers(s: Services): Handlers {
  return {
    'app.info': () => s.info,
    'app.openExternal': async ({ url }) => {
      await loadExternalTargets();
      if (!isAllowedExternal(url))
        throw new AppError('forbidden', `Links to ${new URL(url).host} are not opened by HubDesk.`);
      if (!s.openExternal) return { opened: false };
      await s.openExternal(url);
      return { opened: true };
    },
    'settings.get': () => s.settings.view(),
    'settings.update': (patch) => {
      // A certificates file is read before it is kept: one that is missing or not PEM is refused in words.
      if (patch.caFile) readPemFile(patch.caFile, 'The extra certificates file');
      return s.settings.update(patch);
    },
    'network.status': () => s.network.status(s.settings.get().hubEndpoint),
    'network.test': ({ url }) => s.network.test(new URL(url ?? s.settings.get().hubEndpoint)),
    'secrets.set': ({ name, value }) => {
      // The manual proxy is checked as a proxy address first (its error never repeats a password).
      if (name === 'proxy') parseProxy(value, 'The proxy address');
      s.secrets.set(name, value);
      s.log.info('secret set', { name });
      return s.settings.view();
    },
    'secrets.clear': ({ name }) => {
      s.secrets.clear(name);
      s.log.info('secret cleared', { name });
      return s.settings.view();
    },
    'secrets.keepWithoutKeyring': ({ keep }) => {
      s.secrets.setKeepWithoutKeyring(keep);
      s.endpoints.storageChanged();
      s.log.info('secret storage without keyring', { keep });
      return s.settings.view();
    },
    'keys.approve': async ({ setting }) => {
      await s.keys.approve(setting, s.settings.get()[setting]);
      return s.settings.view();
    },
    'ollama.status': () => s.ollama.status(),
    'ollama.list': () => s.ollama.list(),
    'ollama.pull': (input, ctx) => s.ollama.pull(input, ctx),
    'ollama.version': () => s.ollama.version(),
    'ollama.ps': () => s.ollama.ps(),
    'ollama.show': ({ model }) => s.ollama.show(model),
    'ollama.push': (input, ctx) => s.ollama.push(input, ctx),
    'ollama.create': (input, ctx) => s.ollama.create(input, ctx),
    'ollama.copy': ({ source, destination }) => s.ollama.copy(source, destination),
    'ollama.delete': ({ model }) => s.ollama.delete(model),
    'ollama.embed': (input) => s.ollama.embed(input),
    'snippets.generate': (input) => s.snippets.generate(input),
    'snippets.withToken': (input) => s.snippets.withToken(input),
    'snippets.repo': (input) => s.snippets.repo(input),
    'snippets.save': ({ fileName, content }) => s.snippets.save(fileName, content),
    'fal.tempToken': ({ endpointId }) => s.fal.tempToken(endpointId),
    'catalogue.get': () => s.catalogue.get(),
    'hub.search': (input) => s.hub.search(input),
    'hub.model': ({ id }) => s.hub.model(id),
    'hub.derived': ({ id, relation }) => s.hub.details.derived(id, relation),
    'hub.repo': ({ kind, id }) => s.hub.details.repo(kind, id),
    'hub.readme': ({ kind, id }) => s.hub.details.readme(kind, id),
    'hub.tree': ({ kind, id, cursor }) => s.hub.details.tree(kind, id, cursor),
    'hub.ggufHeader': ({ id, file }) => s.ggufHeaders.read(id, file),
    'system.hardware': ({ refresh }) => s.hardware.view(refresh),
    'chat.list': ({ cursor, limit }) => s.chat.list(cursor, limit),
    'chat.search': ({ query }) => s.chat.search(query),
    'chat.create': (init) => s.chat.create(init),
    'chat.get': ({ id, around }) => s.chat.get(id, around),
    // Pages of a long conversation's path (database failures become errors that say what to do).
    'chat.older': ({ id, before, limit }) => s.chat.older(id, before, limit),
    'chat.newer': ({ id, after, limit }) => s.chat.newer(id, after, limit),
    'chat.update': ({ id, patch }) => s.chat.update(id, patch),
    'chat.delete': async ({ id }) => {
      await s.chat.delete(id);
      return { deleted: true as const };
    },
    'chat.restore': ({ id }) => s.chat.restore(id),
    'chat.edit': ({ id, messageId, content }) => s.chat.edit(id, messageId, content),
    'chat.stop': ({ id, shown }) => s.chat.stop(id, shown),
    'chat.selectVersion': ({ id, messageId }) => s.chat.selectVersion(id, messageId),
    'chat.export': ({ id, format }) => s.chat.files.export(id, format),
    'chat.import': ({ text, asCopy }) => s.chat.files.import(text, asCopy),
    'chat.importPart': ({ upload, text }) => s.chat.files.importPart(upload, text),
    'chat.exportAll': () => s.chat.files.exportAll(),
    'chat.models': () => s.chat.models(),
    'chat.importFile': (input) => s.chat.files.importFile(input),
    'chat.capabilities': ({ id }) => s.chat.capabilitiesOf(id),
    'chat.code': ({ id }) => s.chat.code(id),
    'chat.toolSources': () => s.chat.toolSources(),
    'chat.toolDecision': ({ id, messageId, decision }) => s.chat.toolDecision(id, messageId, decision),
    'chat.send': (input, ctx) => s.chat.send(input, ctx),
    'chat.regenerate': (input, ctx) => s.chat.regenerate(input, ctx),
    'endpoints.list': () => s.endpoints.list(),
    'endpoints.save': (input) => s.endpoints.save(input),
    'endpoints.remove': ({ id }) => s.endpoints.remove(id),
    'endpoints.test': ({ id }) => s.endpoints.test(id),
    'endpoints.models': ({ id }) => s.endpoints.models(id),
    'endpoints.setContext': (input) => s.endpoints.setContext(input),
    'local.models': ({ refresh }) => s.local.library.list(refresh),
    'local.folders.add': ({ path }) => s.local.library.addFolder(path),
    'local.folders.forget': ({ path }) => s.local.library.forgetFolder(path),
    'local.delete': async ({ id }) => {
      await s.local.runtime.unload(id);
      return s.local.library.delete(id);
    },
    'local.recommend': () => s.local.recommendation(),
    'local.downloads': () => ({ downloads: s.local.downloads.list() }),
    'local.downloads.watch': (_input, ctx) => s.local.watchDownloads(ctx),
    'local.download.start': (input) => s.local.downloads.start(input),
    'local.download.pause': ({ id }) => s.local.downloads.pause(id),
    'local.download.resume': ({ id }) => s.local.downloads.resume(id),
    'local.download.restart': ({ id }) => s.local.downloads.restart(id),
    'local.download.cancel': ({ id }) => s.local.downloads.cancel(id),
    'local.download.dismiss': ({ id }) => ({ downloads: s.local.downloads.dismiss(id) }),
    'local.status': () => s.local.runtime.statusNow(),
    'local.load': ({ id, ...opts }) => s.local.load(id, opts),
    'local.keepAlive': ({ minutes }) => s.local.setKeepAlive(minutes),
    'local.threads': ({ threads }) => s.local.setThreads(threads),
    'local.unload': ({ id }) => s.local.runtime.unload(id),
    'local.embed': ({ id, input }) => s.local.embed(id, input),
    'local.server.status': () => s.local.server.status(),
    'local.server.set': (input) => s.local.setServer(input),
    'local.server.key.generate': () => s.local.generateKey(),
    'local.server.key.copy': () => s.local.copyKey(),
    'local.server.setups': ({ model }) => s.local.setups(model),
    'local.server.log.watch': (_input, ctx) => s.local.watchRequests(ctx),
    'local.server.log.entry': ({ id }) => s.local.server.log.bodies(id),
    'local.server.log.clear': () => (s.local.server.log.clear(), { cleared: true as const }),
    'mcp.config.get': async () => (await s.mcp()).getConfig(),
    'mcp.config.save': async ({ text }) => (await s.mcp()).saveConfig(text),
    'mcp.config.import': async ({ text }) => (await s.mcp()).importConfig(text),
    'mcp.servers': async ({ connect }) => (await s.mcp()).servers(connect),
    'mcp.start': async ({ name }) => (await s.mcp()).start(name),
    'mcp.restart': async ({ name }) => (await s.mcp()).restart(name),
    'mcp.stop': async ({ name }) => (await s.mcp()).stop(name),
    'mcp.log': async ({ name }) => (await s.mcp()).log(name),
    'mcp.callTool': async ({ server, tool, arguments: args, timeoutMs }, ctx) => {
      ctx.emit({ type: 'started', server, tool });
      return (await s.mcp()).callTool(server, tool, args, { signal: ctx.signal, timeoutMs });
    },
    'compare.plan': (set) => s.compare.plan(set),
    'compare.run': (input, ctx) => s.compare.run(input, ctx),
    'compare.get': ({ id }) => s.compare.get(id),
    'compare.recent': ({ limit }) => s.compare.recent(limit),
    'compare.delete': ({ id }) => s.compare.delete(id),
    'compare.vote': ({ id, winner }) => s.compare.vote(id, winner),
    'compare.scoreboard': () => s.compare.scoreboard(),
    'compare.continue': ({ id, slot, run }) => s.compare.continue(id, slot, run),
    'compare.export': ({ id }) => s.compare.export(id),
    'compare.sets': () => s.compare.sets(),
    'compare.sets.save': (input) => s.compare.saveSet(input),
    'compare.sets.delete': ({ id }) => s.compare.deleteSet(id),
    'docs.bases': ({ conversation }) => s.documents.bases(conversation),
    'docs.bases.create': ({ name }) => s.documents.createBase(name),
    'docs.bases.rename': ({ id, name }) => s.documents.renameBase(id, name),
    'docs.bases.delete': ({ id }) => s.documents.deleteBase(id),
    'docs.attachPath': ({ target, path }) => s.documents.attachPath(target, path),
    'docs.attachPick': ({ target, folder }) => s.documents.attachPick(target, folder),
    'docs.uploadPart': ({ upload, data }) => s.documents.uploadPart(upload, data),
    'docs.attachUpload': ({ target, upload, name }) => s.documents.attachUpload(target, upload, name),
    'docs.remove': ({ source }) => s.documents.remove(source),
    'docs.pin': ({ document, pinned }) => s.documents.pin(document, pinned),
    'docs.cancel': ({ base }) => s.documents.cancel(base),
    'docs.resume': ({ base }) => s.documents.resume(base),
    'docs.embedder.set': (embedder) => s.documents.setEmbedder(embedder),
    'docs.watch': ({ conversation }, ctx) => s.documents.watch(conversation, ctx),
    'docs.passage': ({ chunk }) => s.documents.passage(chunk),
    'docs.search': ({ bases, query, limit }) => s.documents.search(bases, query, limit),
  };
}
