import { GGMLFileQuantizationType, GGUF_QUANT_ORDER, parseGGUFQuantLabel } from '@huggingface/tasks';
import type { GgufQuant } from '@shared/contract/hub-repo';

function rank(label: string): number {
  const types = GGMLFileQuantizationType as unknown as Record<string, number | undefined>;
  const exact = types[label];
  if (exact !== undefined) {
    const i = GGUF_QUANT_ORDER.indexOf(exact);
    if (i >= 0) return i;
  }
  // Variants such as Unsloth's "UD-Q4_K_XL" sit just after the nearest listed type.
  const base = label.replace(/^UD-/i, '');
  for (const candidate of [base, base.replace(/_XL$/i, '_M'), base.replace(/_XL$/i, '_L')]) {
    const near = types[candidate];
    const i = near === undefined ? -1 : GGUF_QUANT_ORDER.indexOf(near);
    if (i >= 0) return i + 0.5;
  }
  return Number.MAX_SAFE_INTEGER;
}

/**
 * The quantizations a GGUF repo offers, parsed from its file names with @huggingface/tasks and ordered
 * as GGUF_QUANT_ORDER; split files (`-00001-of-00003.gguf`) are summed. Projector files (mmproj) are skipped.
 */
export function ggufQuants(siblings: { rfilename: string; size?: number }[] | undefined): GgufQuant[] {
  const byLabel = new Map<string, GgufQuant & { unknownSize: boolean }>();
  for (const s of siblings ?? []) {
    const name = s.rfilename.split('/').pop() ?? s.rfilename;
    if (!/\.gguf$/i.test(name) || /^mmproj/i.test(name)) continue;
    const label = parseGGUFQuantLabel(name);
    if (!label) continue;
    const q = byLabel.get(label) ?? { label, files: [], size: 0, unknownSize: false };
    q.files.push(s.rfilename);
    if (typeof s.size === 'number') q.size = (q.size ?? 0) + s.size;
    else q.unknownSize = true;
    byLabel.set(label, q);
  }
  return [...byLabel.values()]
    .sort((a, b) => rank(a.label) - rank(b.label) || a.label.localeCompare(b.label))
    .map(({ unknownSize, ...q }) => (unknownSize ? { label: q.label, files: q.files } : q));
}
