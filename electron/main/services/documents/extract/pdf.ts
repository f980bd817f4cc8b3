import type { TextItem } from 'pdfjs-dist/types/src/display/api';
import type { DocSection, ExtractedDoc } from '../types';
import { extractError, tooMuchText } from './errors';
import { count, type ExtractLimits } from './limits';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | undefined;

/**
 * pdf.js, loaded on first use (it is large). Its worker module runs in this thread ("fake worker", found through
 * `globalThis.pdfjsWorker`): one text extraction at a time does not need a thread of its own, and no worker file has
 * to be located at run time.
 */
function loadPdfJs(): Promise<PdfJs> {
  return (pdfjs ??= (async () => {
    const worker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  })());
}

/** Fewer non-space characters per page than this, on average, is a scan with at most page numbers on it. */
const MIN_CHARS_PER_PAGE = 10;

/** A PDF's text layer, page by page: one section per page, its number kept; lines and paragraph gaps as found. */
export async function pdfDoc(
  file: string,
  bytes: Uint8Array,
  limits: Pick<ExtractLimits, 'maxPages' | 'maxTextChars'>,
): Promise<ExtractedDoc> {
  const { getDocument } = await loadPdfJs();
  // pdf.js takes the buffer over (transfers it), so it gets a copy.
  const task = getDocument({ data: bytes.slice(), isEvalSupported: false, disableFontFace: true, verbosity: 0 });
  let pdf;
  try {
    pdf = await task.promise;
  } catch (e) {
    throw pdfError(file, e);
  }
  try {
    // The page tree's count, before any page is read: a tree listing one page 200,000 times is 120 KB.
    if (pdf.numPages > limits.maxPages)
      throw extractError(
        file,
        'too_large',
        `This PDF has ${count(pdf.numPages)} pages; HubDesk reads PDFs of up to ${count(limits.maxPages)} pages: split it into smaller files.`,
      );
    const sections: DocSection[] = [];
    let text = '';
    let chars = 0;
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const pageText = pageLines(content.items.filter((i): i is TextItem => 'str' in i));
      page.cleanup();
      chars += pageText.replace(/\s/g, '').length;
      if (!pageText) continue;
      if (text) text += '\n\n';
      sections.push({ headings: [], page: n, start: text.length, end: text.length + pageText.length });
      text += pageText;
      if (text.length > limits.maxTextChars) throw tooMuchText(file, limits.maxTextChars);
    }
    if (chars < MIN_CHARS_PER_PAGE * pdf.numPages)
      throw extractError(file, 'no_text', 'This PDF has no text (a scan?): HubDesk cannot read it without OCR.');
    return { kind: 'pdf', text, sections, pages: pdf.numPages };
  } catch (e) {
    throw pdfError(file, e);
  } finally {
    await task.destroy();
  }
}

/** A page's items as lines; a vertical gap over 1.5 lines becomes a paragraph break. */
function pageLines(items: TextItem[]): string {
  let out = '';
  let lastY: number | undefined;
  for (const item of items) {
    const y = item.transform[5];
    const size = Math.abs(item.transform[3]) || item.height || 10;
    if (lastY !== undefined && out && !out.endsWith('\n') && Math.abs(lastY - y) > size * 0.5) out += '\n';
    if (lastY !== undefined && out.endsWith('\n') && !out.endsWith('\n\n') && Math.abs(lastY - y) > size * 1.5)
      out += '\n';
    out += item.str;
    if (item.hasEOL) out += '\n';
    if (item.str) lastY = y;
  }
  return out
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function pdfError(file: string, e: unknown): Error {
  const name = (e as Error | null)?.name;
  if (name === 'AppError') return e as Error;
  if (name === 'PasswordException') return extractError(file, 'password', 'This PDF is password-protected.');
  return extractError(
    file,
    'damaged',
    `This PDF is damaged or not a PDF (${(e as Error | null)?.message ?? String(e)}), so HubDesk cannot read it.`,
  );
}
