import type { DocSection, ExtractedDoc } from '../types';
import { extractError } from './errors';
import { count, type ExtractLimits } from './limits';

/** JSON, pretty-printed; a top-level object's keys become headings, one section each. */
export function jsonDoc(file: string, text: string, limits: Pick<ExtractLimits, 'maxDepth'>): ExtractedDoc {
  const body = text.replace(/^\uFEFF/, '');
  // JSON.parse and JSON.stringify recurse: past a few thousand levels they overflow the stack. Measured first, by a
  // loop, so a deep document is refused in words.
  if (depthOf(body) > limits.maxDepth)
    throw extractError(
      file,
      'too_deep',
      `This JSON file nests more than ${count(limits.maxDepth)} levels deep: HubDesk does not index it.`,
    );
  let value: unknown;
  try {
    value = JSON.parse(body);
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

/** The deepest nesting of `[` and `{` outside strings (invalid JSON is left to JSON.parse to describe). */
function depthOf(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) max = Math.max(max, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}
