import type { DocSection, ExtractedDoc } from '../types';
import { extractError } from './errors';

/** JSON, pretty-printed; a top-level object's keys become headings, one section each. */
export function jsonDoc(file: string, text: string): ExtractedDoc {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw extractError(
      file,
      'damaged',
      `This JSON file is not valid JSON (${(e as Error).message}), so HubDesk cannot read it.`,
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const out = JSON.stringify(value, null, 2);
    return { kind: 'json', text: out, sections: [{ headings: [], start: 0, end: out.length }] };
  }
  const sections: DocSection[] = [];
  let out = '';
  for (const [key, v] of Object.entries(value)) {
    if (out) out += '\n\n';
    const start = out.length;
    out += `${JSON.stringify(key)}: ${JSON.stringify(v, null, 2)}`;
    sections.push({ headings: [key], start, end: out.length });
  }
  return { kind: 'json', text: out, sections };
}
