import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { KnowledgeBase } from '@shared/contract/documents';
import type { StreamPayload } from '@shared/transport';
import { createHandlers } from '../../electron/main/handlers';
import { Router } from '../../electron/main/router';
import { createServices } from '../../electron/main/services';
import { readDocument } from '../../electron/main/services/documents/extract/read';
import { ExtractThread } from '../../electron/main/services/documents/extract/thread';
import { createLogger } from '../../electron/main/services/log';
import { docxBytes } from '../../tests/fixtures/documents/docx';
import { pdfBytes } from '../../tests/fixtures/documents/pdf';
import { buildExtractWorker } from '../../tests/helpers/engine-host-build';
import { figure, percentile, timeRuns, type BenchContext, type Figure } from '../lib/measure';
import { page } from './documents';

const PAGES = 300;
/** One cheap call every TICK_MS, as a page polling main would send it. */
const TICK_MS = 10;
const MB = 1024 * 1024;

/** A CSV of `rows` rows × 10 columns of about 22 characters (a header first), written row block by row block. */
function writeCsv(file: string, rows: number): void {
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, `${Array.from({ length: 10 }, (_, c) => `column_${c}`).join(',')}\n`);
    for (let r = 0; r < rows; r += 10_000) {
      const block: string[] = [];
      for (let i = r; i < Math.min(rows, r + 10_000); i++)
        block.push(Array.from({ length: 10 }, (_, c) => `r${i}c${c} value ${(i * 31 + c) % 9973}xx`).join(','));
      writeSync(fd, `${block.join('\n')}\n`);
    }
  } finally {
    closeSync(fd);
  }
}

/** The folder attached while sampling: what each file is, so the note says what was read and what was refused. */
function writeFolder(dir: string): void {
  // Within the caps: 1.8 M cells (cap 2 M) whose Markdown table stays under the 50 M characters a document may yield.
  writeCsv(join(dir, 'table-within-caps.csv'), 180_000);
  // Past the caps: about 100 MB, refused at the 2 M-cell cap after about half of it is parsed.
  writeCsv(join(dir, 'table-100mb.csv'), 435_000);
  writeFileSync(join(dir, 'report-300p.pdf'), pdfBytes(Array.from({ length: PAGES }, (_, p) => page(p + 1))));
  // About 45 M characters of text in 1,000-character paragraphs, a heading every 50: under the 50 M-character cap.
  const para = (i: number) => `${page((i % PAGES) + 1).replace(/\n+/g, ' ')} `.slice(0, 1_000);
  writeFileSync(
    join(dir, 'book-45m-chars.docx'),
    docxBytes(
      Array.from({ length: 45_000 }, (_, i) =>
        i % 50 === 0 ? { style: 'Heading1', text: `Part ${i / 50 + 1}` } : { text: para(i) },
      ),
    ),
  );
}

interface Sample {
  ms: number;
  /** Whether the last docs.watch snapshot showed a file being extracted when the call was due. */
  extracting: boolean;
}

/**
 * `app.info` (answered from memory by main) every TICK_MS, each latency taken from when the call was due (not when
 * the timer got to run), so a blocked event loop counts for every call that waited on it.
 */
async function sample(
  router: Router,
  opts: { maxMs: number; done: () => boolean; extracting: () => boolean },
): Promise<Sample[]> {
  const out: Sample[] = [];
  const t0 = performance.now();
  for (let i = 0; ; i++) {
    const due = t0 + i * TICK_MS;
    if (performance.now() - t0 > opts.maxMs || opts.done()) break;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const extracting = opts.extracting();
    await router.call('app.info', {});
    out.push({ ms: performance.now() - due, extracting });
  }
  return out;
}

const sizeOf = (file: string) => {
  try {
    return `${(statSync(file).size / MB).toFixed(0)} MB`;
  } catch {
    return '?';
  }
};

/** One run: fresh services and data dir, the idle baseline, then the folder attached and sampled until indexed. */
async function loadRun(ctx: BenchContext, entry: string, folder: string, maxMs: number) {
  const dataDir = mkdtempSync(join(folder, '..', 'data-'));
  const services = createServices({
    mode: 'web',
    version: 'bench',
    // No engine runs here, but the local service wants its host's path (run from sources, none is beside main).
    env: { HUBDESK_ENGINE_HOST: join(dataDir, 'no-engine-host.js') },
    dataDir,
    local: { home: dataDir },
    documents: { extract: { entry }, startDelayMs: 0 },
  });
  const router = new Router(createHandlers(services), services.log);
  let bases: KnowledgeBase[] = [];
  // The Documents page watches its bases while they index: the same stream, so its cost is in the figure.
  const watch = router.stream('docs.watch', {}, (m: StreamPayload) => {
    if (m.type !== 'events') return;
    const last = (m.events as { bases: KnowledgeBase[] }[]).at(-1);
    if (last) bases = last.bases;
  });
  const extracting = () => bases.some((b) => b.documents.some((d) => d.state === 'extracting'));
  try {
    const { base } = (await router.call('docs.bases.create', { name: 'load' })) as { base: KnowledgeBase };
    const idle = await sample(router, { maxMs: ctx.quick ? 3_000 : 6_000, done: () => false, extracting });
    const t = performance.now();
    await router.call('docs.attachPath', { target: { base: base.id }, path: folder });
    const busy = await sample(router, {
      maxMs,
      done: () => !services.documents.indexer.state(base.id).running,
      extracting,
    });
    const took = performance.now() - t;
    const final = (await router.call('docs.bases', {})) as { bases: KnowledgeBase[] };
    const docs = final.bases.find((b) => b.id === base.id)?.documents ?? [];
    const outcome = docs.map((d) => {
      const size = sizeOf(join(folder, d.name));
      if (d.state === 'error')
        return `${d.name} (${size}): refused, ${(d.error?.details as { reason?: string } | undefined)?.reason ?? d.error?.code}`;
      if (d.state === 'queued' || d.state === 'extracting') return `${d.name} (${size}): still ${d.state}`;
      return `${d.name} (${size}): read, ${d.chunks} chunks${d.pages ? `, ${d.pages} pages` : ''}`;
    });
    const during = busy.filter((s) => s.extracting).map((s) => s.ms);
    ctx.log(
      `idle p99 ${percentile(
        idle.map((s) => s.ms),
        99,
      ).toFixed(1)} ms (${idle.length} calls); indexing ${(took / 1000).toFixed(1)} s${
        services.documents.indexer.state(base.id).running ? ' (window ended first)' : ''
      }: p99 ${percentile(
        busy.map((s) => s.ms),
        99,
      ).toFixed(1)} ms over ${busy.length} calls, ${during.length} while a file was extracting (p99 ${percentile(
        during,
        99,
      ).toFixed(1)} ms, max ${Math.max(...during).toFixed(0)} ms)`,
    );
    for (const o of outcome) ctx.log(`  ${o}`);
    return {
      idle: percentile(
        idle.map((s) => s.ms),
        99,
      ),
      busy: percentile(
        busy.map((s) => s.ms),
        99,
      ),
      samples: busy.length,
      extractingSamples: during.length,
      tookS: took / 1000,
      outcome,
    };
  } finally {
    watch.cancel();
    await services.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Documents (#38): (1) main's responsiveness while a folder of heavy documents indexes (a ~40 MB CSV within the caps,
 * a ~100 MB CSV past the cell cap, a 300-page PDF, a ~45 M-character DOCX): `app.info` every 10 ms through the router,
 * its p99 from when each call was due, against the same with nothing indexing (no embedding model is set, so indexing
 * is extraction in the worker plus storing the passages on main). (2) PDF pages/s of the same 300-page PDF read
 * (extracted and chunked) through the extraction worker against `readDocument` in this process, interleaved.
 */
export async function documentsLoad(ctx: BenchContext): Promise<Figure[]> {
  const root = join(process.cwd(), 'bench/results/.data');
  mkdirSync(root, { recursive: true });
  const dir = mkdtempSync(join(root, 'documents-load-'));
  try {
    const entry = await buildExtractWorker(join(dir, 'worker'));
    const folder = join(dir, 'docs');
    mkdirSync(folder);
    writeFolder(folder);
    const pdf = join(folder, 'report-300p.pdf');

    // (2) first, on a quiet process: the worker path against the same read in this thread.
    const thread = new ExtractThread({ log: createLogger(), entry });
    const rate = (ms: number[]) => ms.map((t) => PAGES / (t / 1000));
    const viaWorker: number[] = [];
    const inProcess: number[] = [];
    try {
      await thread.read(pdf);
      await readDocument(pdf);
      for (let i = 0; i < ctx.runs(6, 3); i++) {
        const pair = [
          async () => viaWorker.push(...(await timeRuns(1, () => thread.read(pdf), 0))),
          async () => inProcess.push(...(await timeRuns(1, () => readDocument(pdf), 0))),
        ];
        for (const run of i % 2 ? pair.reverse() : pair) await run();
      }
    } finally {
      await thread.close();
    }

    // (1) one run in quick mode (each indexes the whole folder again).
    const maxMs = ctx.quick ? 180_000 : 300_000;
    const runs = [];
    for (let i = 0; i < ctx.runs(3, 1); i++) runs.push(await loadRun(ctx, entry, folder, maxMs));
    const last = runs.at(-1)!;
    return [
      figure(
        'documents-load: app.info p99 while heavy documents index',
        'ms',
        runs.map((r) => r.busy),
        {
          baseline: runs.map((r) => r.idle),
          target: 'p99 ≤ 50 ms while indexing (baseline: idle p99)',
          note:
            `${last.samples} calls over ${last.tookS.toFixed(0)} s, ${last.extractingSamples} while a file was extracting; ` +
            `latency from when each call was due; ${last.outcome.join('; ')}`,
        },
      ),
      figure('documents-load: 300-page PDF read via the worker', 'pages/s', rate(viaWorker), {
        baseline: rate(inProcess),
        target: "ratio ≥ 0.9 (baseline: the same extraction in main's process)",
      }),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
