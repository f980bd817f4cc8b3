import { chunk } from '../../electron/main/services/documents/chunk';
import { extract } from '../../electron/main/services/documents/extract/extract';
import { pdfBytes } from '../../tests/fixtures/documents/pdf';
import { figure, timeRuns, type BenchContext, type Figure } from '../lib/measure';

const PAGES = 200;
const words = 'report revenue quarter growth region market customer product team plan risk cost budget'.split(' ');

/** A page of prose as a report's PDF has it: 40 lines of about 80 characters, a paragraph gap every 8 lines. */
export function page(p: number): string {
  const lines = Array.from({ length: 40 }, (_, i) => {
    const w = Array.from({ length: 12 }, (_, k) => words[(p * 7 + i * 3 + k) % words.length]).join(' ');
    return `${w} ${p}.${i}.${i % 4 === 3 ? '' : ' More'}`;
  });
  for (let i = 32; i > 0; i -= 8) lines.splice(i, 0, '');
  return lines.join('\n');
}

/**
 * Documents (#31): a 200-page PDF (generated, text layer only) through extraction and chunking (512-token chunks,
 * 64 overlap), no embedding, in PDF pages per second; the baseline is pdf.js alone reading every page's text in
 * the same run, so the ratio is what HubDesk's extraction and chunking keep of pdf.js's own speed.
 */
export async function documents(ctx: BenchContext): Promise<Figure[]> {
  const bytes = pdfBytes(Array.from({ length: PAGES }, (_, p) => page(p + 1)));
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  let chunks = 0;
  const hubRun = async () => {
    const doc = await extract({ name: 'report.pdf', bytes });
    chunks = chunk(doc, { targetTokens: 512, overlapTokens: 64 }).length;
  };
  // pdf.js as extract calls it (its worker in this thread, set up by the warm-up extract), every page's text.
  const baseRun = async () => {
    const task = getDocument({ data: bytes.slice(), isEvalSupported: false, disableFontFace: true, verbosity: 0 });
    const pdf = await task.promise;
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      await page.getTextContent();
      page.cleanup();
    }
    await task.destroy();
  };
  await hubRun();
  await baseRun();
  // Interleaved run by run, so both see the same machine.
  const hub: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < ctx.runs(6, 3); i++) {
    hub.push(...(await timeRuns(1, hubRun, 0)));
    base.push(...(await timeRuns(1, baseRun, 0)));
  }
  ctx.log(`${PAGES} pages → ${chunks} chunks`);
  const rate = (ms: number[]) => ms.map((t) => PAGES / (t / 1000));
  return [
    figure('documents: PDF extraction + chunking', 'pages/s', rate(hub), {
      baseline: rate(base),
      target: '≥ 50 pages/s (baseline: pdf.js text alone)',
    }),
  ];
}
