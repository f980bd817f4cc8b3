import { readFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { DocKind, ExtractedDoc } from '../types';
import { csvDoc } from './csv';
import { docxDoc } from './docx';
import { extractError, tooMuchText } from './errors';
import { htmlDoc } from './html';
import { jsonDoc } from './json';
import { mb, withDefaults, type ExtractLimits } from './limits';
import { pdfDoc } from './pdf';
import { decodeText, looksLikeText, textDoc } from './text';

const CODE = (
  'ts tsx js jsx mjs cjs py pyi rb go rs java kt kts scala c h cc cpp cxx hpp hh cs swift m mm php pl lua r jl dart ' +
  'sh bash zsh fish ps1 bat sql graphql proto yaml yml toml ini cfg conf env xml css scss sass less vue svelte ' +
  'ex exs erl hs ml clj el vim tf nix gradle cmake makefile dockerfile jsonl ndjson ipynb'
).split(' ');
const BY_EXTENSION: Record<string, DocKind> = {
  ...Object.fromEntries(CODE.map((e) => [e, 'code'])),
  ...{ txt: 'text', text: 'text', log: 'text', rst: 'text', adoc: 'text', tex: 'text', srt: 'text', vtt: 'text' },
  ...{ md: 'markdown', markdown: 'markdown', mdx: 'markdown', pdf: 'pdf', docx: 'docx' },
  ...{ html: 'html', htm: 'html', xhtml: 'html', csv: 'csv', tsv: 'csv', json: 'json' },
};
const SUPPORTED = 'text, Markdown, code, PDF, Word (.docx), HTML, CSV and JSON';

export type DocumentInput = string | { name: string; bytes: Uint8Array };

/**
 * Reads a document for indexing: by its extension, else by its content (PDF and DOCX by signature, text by the
 * absence of binary bytes). Every file HubDesk cannot read fails with an AppError saying why, in words, with
 * `details: { file, reason }`, and so does one past a limit (`limits.ts`). This runs on whatever thread calls it: the
 * app calls it in the extraction worker (`thread.ts`), never on main.
 */
export async function extract(input: DocumentInput, options: Partial<ExtractLimits> = {}): Promise<ExtractedDoc> {
  const limits = withDefaults(options);
  const maxBytes = limits.maxBytes;
  const name = typeof input === 'string' ? basename(input) : input.name;
  const size = typeof input === 'string' ? await fileSize(input) : input.bytes.byteLength;
  if (size > maxBytes)
    throw extractError(
      name,
      'too_large',
      `This file is too large to add (${mb(size)}; the limit is ${mb(maxBytes)}): split it into smaller files.`,
    );
  const bytes = typeof input === 'string' ? new Uint8Array(await readFile(input)) : input.bytes;
  const ext = extname(name).slice(1).toLowerCase() || name.toLowerCase();
  const kind = BY_EXTENSION[ext] ?? sniff(bytes);
  if (!kind)
    throw extractError(
      name,
      'unsupported',
      `HubDesk cannot read ${ext && ext !== name.toLowerCase() ? `.${ext} files` : 'this kind of file'}: it reads ${SUPPORTED}.`,
    );
  const doc = await read(name, kind, ext, bytes, limits);
  if (doc.text.length > limits.maxTextChars) throw tooMuchText(name, limits.maxTextChars);
  return doc;
}

function read(name: string, kind: DocKind, ext: string, bytes: Uint8Array, limits: ExtractLimits) {
  switch (kind) {
    case 'pdf':
      return pdfDoc(name, bytes, limits);
    case 'docx':
      return docxDoc(name, bytes, limits);
    case 'html':
      return htmlDoc(decodeText(name, bytes));
    case 'csv':
      return csvDoc(name, decodeText(name, bytes), ext === 'tsv', limits);
    case 'json':
      return jsonDoc(name, decodeText(name, bytes), limits);
    default:
      return textDoc(kind, decodeText(name, bytes));
  }
}

/** A file without a known extension: PDF and Word by their signatures, text when it has no binary bytes. */
function sniff(bytes: Uint8Array): DocKind | undefined {
  const head = Buffer.from(bytes.subarray(0, 2048)).toString('latin1');
  if (head.startsWith('%PDF-')) return 'pdf';
  if (head.startsWith('PK\x03\x04') && head.includes('word/')) return 'docx';
  if (!looksLikeText(bytes)) return undefined;
  return /^\s*<(!doctype html|html)/i.test(head) ? 'html' : 'text';
}

async function fileSize(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const message =
      code === 'ENOENT'
        ? 'This file is no longer there (moved or deleted).'
        : `HubDesk cannot open this file (${code ?? String(e)}).`;
    throw extractError(basename(path), 'unreadable', message);
  }
}
