import { markdownSections } from '../sections';
import type { DocKind, ExtractedDoc } from '../types';
import { extractError } from './errors';

const SNIFF = 8192;

/** Whether the bytes look like text: no NUL in the first 8 KB (UTF-16 with its BOM excepted). */
export function looksLikeText(bytes: Uint8Array): boolean {
  if (utf16(bytes)) return true;
  const head = bytes.subarray(0, SNIFF);
  return !head.includes(0);
}

/** Decodes text files: UTF-8 (a BOM dropped), UTF-16 with a BOM; anything else binary is refused in words. */
export function decodeText(file: string, bytes: Uint8Array): string {
  const wide = utf16(bytes);
  if (wide) return new TextDecoder(wide).decode(bytes); // the decoder drops the BOM
  const notText = () =>
    extractError(
      file,
      'not_text',
      'This is not a text file (it holds binary data), so HubDesk cannot read it as text.',
    );
  if (!looksLikeText(bytes)) throw notText();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Not UTF-8: a legacy 8-bit encoding reads best as Windows-1252 unless it is full of control bytes (binary).
    const controls = bytes.subarray(0, SNIFF).filter((b) => b < 9 || (b > 13 && b < 32)).length;
    if (controls > 8) throw notText();
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

function utf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

/** Text, Markdown or code: Markdown is sectioned by its headings; plain text and code are one section. */
export function textDoc(kind: Extract<DocKind, 'text' | 'markdown' | 'code'>, text: string): ExtractedDoc {
  const normal = text.replace(/\r\n?/g, '\n');
  const sections =
    kind === 'markdown'
      ? markdownSections(normal)
      : normal.trim()
        ? [{ headings: [], start: 0, end: normal.length }]
        : [];
  return { kind, text: normal, sections };
}
