import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { type BenchContext, type Figure } from './lib/measure';
import { hubSearch } from './figures/hub-search';
import { chatSearch } from './figures/chat-search';
import { documents } from './figures/documents';
import { documentsEmbed } from './figures/documents-embed';
import { documentsLoad } from './figures/documents-load';
import { documentsRetrieval } from './figures/documents-retrieval';
import { documentsRecall } from './figures/documents-recall';
import { compare } from './figures/compare';
import { endpointDoctor, endpointEngine, endpointStop } from './figures/endpoints';
import { localDownload } from './figures/local-download';
import { localEngine } from './figures/local-engine';
import { localServer } from './figures/local-server';
import { longChat } from './figures/long-chat';
import { markdown } from './figures/markdown';
import { modelPage } from './figures/model-page';
import { networkProxy } from './figures/network-proxy';
import { persistence } from './figures/persistence';
import { search } from './figures/search';
import { snippets } from './figures/snippets';
import { startup } from './figures/startup';
import { streaming } from './figures/streaming';
import { threads } from './figures/threads';

// `npm run bench [-- --quick] [-- --only <figure>]`: every figure is a median of several runs, and where a
// baseline exists, a ratio against it measured in the same run. Nothing here is a test assertion.
const figures: Record<string, (ctx: BenchContext) => Promise<Figure[]>> = {
  snippets,
  streaming,
  markdown,
  search,
  'hub-search': hubSearch,
  startup,
  'long-chat': longChat,
  persistence,
  'model-page': modelPage,
  'chat-search': chatSearch,
  'endpoint-engine': endpointEngine,
  'endpoint-stop': endpointStop,
  'endpoint-doctor': endpointDoctor,
  'local-engine': localEngine,
  'local-server': localServer,
  threads,
  'local-download': localDownload,
  documents,
  compare,
  'documents-embed': documentsEmbed,
  'documents-retrieval': documentsRetrieval,
  'documents-recall': documentsRecall,
  'documents-load': documentsLoad,
  'network-proxy': networkProxy,
};

function fmt(n: number | undefined, digits = 2): string {
  if (n === undefined || Number.isNaN(n)) return '';
  if (Math.abs(n) >= 1000) return Math.round(n).toLocaleString('en-US');
  return n.toFixed(digits);
}

/** HubDesk beside each peer renderer, with HubDesk/peer ratios: below 1 is HubDesk faster for times, slower for rates. */
function peersTable(figs: Figure[]): string {
  if (!figs.length) return '';
  const names = [...new Set(figs.flatMap((f) => f.peers!.map((p) => p.name)))];
  const header = ['figure', 'HubDesk', ...names.flatMap((n) => [n, 'ratio']), 'runs', 'target / note'];
  const rows = figs.map((f) => [
    f.name,
    `${fmt(f.value)} ${f.unit}`,
    ...names.flatMap((n) => {
      const p = f.peers!.find((x) => x.name === n);
      return p ? [`${fmt(p.value)} ${f.unit}`, p.ratio === undefined ? '—' : fmt(p.ratio)] : ['', ''];
    }),
    String(f.runs),
    f.target ?? f.note ?? '',
  ]);
  const lines = [header, header.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`);
  return `\nHubDesk and peers (ratio = HubDesk / peer, same run):\n\n${lines.join('\n')}\n`;
}

export async function main(argv: string[]): Promise<void> {
  const quick = argv.includes('--quick');
  const onlyIdx = argv.indexOf('--only');
  const only = onlyIdx >= 0 ? argv[onlyIdx + 1]?.split(',') : undefined;
  const ctx: BenchContext = {
    quick,
    runs: (full, q) => (quick ? (q ?? Math.max(3, Math.ceil(full / 3))) : full),
    log: (m) => process.stderr.write(`  ${m}\n`),
  };
  const root = resolve(process.cwd());
  const results: Figure[] = [];
  const started = performance.now();
  for (const [name, run] of Object.entries(figures)) {
    if (only && !only.includes(name)) continue;
    process.stderr.write(`== ${name}\n`);
    const t = performance.now();
    results.push(...(await run(ctx)));
    process.stderr.write(`   ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  }
  rmSync(join(root, 'bench/results/.data'), { recursive: true, force: true });

  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const rows = results
    .filter((f) => !f.peers)
    .map((f) => [
      f.name,
      `${fmt(f.value)} ${f.unit}`,
      f.baseline === undefined ? '' : `${fmt(f.baseline)} ${f.unit}`,
      fmt(f.ratio),
      String(f.runs),
      f.target ?? f.note ?? '',
    ]);
  const header = ['figure', 'value', 'baseline', 'ratio', 'runs', 'target / note'];
  const table = [header, header.map(() => '---'), ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
  process.stdout.write(
    `\n${table}\n${peersTable(results.filter((f) => f.peers))}\nMachine: ${machine}. Mode: ${quick ? 'quick' : 'full'}. Took ${((performance.now() - started) / 1000).toFixed(0)} s.\n`,
  );
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(
    join(root, 'bench/results/latest.json'),
    JSON.stringify({ date: new Date().toISOString(), machine, quick, figures: results }, null, 2),
  );
}
