/**
 * The documents crash test's child: indexes a folder through the real documents service on the real chat database
 * and Ollama at OLLAMA_HOST, printing how many chunks have a vector after each change. The parent kills it with
 * SIGKILL. (The services are built by hand: createServices needs Vite's build-time globs.)
 * Run: JITI_ALIAS='{"@shared":"<root>/shared"}' node node_modules/jiti/lib/jiti-cli.mjs tests/crash/docs-indexer.ts <dataDir> <folder>
 */
import { join } from 'node:path';
import { ChatStore } from '../../electron/main/services/chat/storage/store';
import { ollamaEngines } from '../helpers/engines';
import { createEmbedder } from '../../electron/main/services/documents/embedder';
import { IndexStore } from '../../electron/main/services/documents/index-store';
import { DocumentsService } from '../../electron/main/services/documents/service';
import { createLogger } from '../../electron/main/services/log';
import { OllamaService } from '../../electron/main/services/ollama/service';

const [dataDir, folder] = process.argv.slice(2);
const log = createLogger();
const ollama = new OllamaService({ host: () => process.env.OLLAMA_HOST!, keyedFetch: fetch, log });
const docs = new DocumentsService({
  index: new IndexStore(new ChatStore({ file: join(dataDir, 'chats.sqlite') }, log)),
  embed: createEmbedder(ollamaEngines(ollama, log)),
  log,
  uploadsDir: join(dataDir, 'documents', 'uploads'),
  batch: 2,
});
const embedded = async () =>
  (await docs.bases()).bases.flatMap((b) => b.documents).reduce((n, d) => n + d.chunksDone, 0);
docs.indexer.onChange(() => void embedded().then((n) => process.stdout.write(`embedded ${n}\n`)));
void (async () => {
  await docs.setEmbedder({ backend: 'ollama', model: 'nomic-embed-text' });
  const { base } = await docs.createBase('Crash');
  await docs.attachPath({ base: base.id }, folder);
})();
