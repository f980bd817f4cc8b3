import type { RepoKind } from '@shared/contract/hub-repo';
import { hubKindOfRepo, hubWebPath } from '@shared/hub-kinds';

/** Hosts a card may load images from: the Hub and its CDNs (plus the configured endpoint). */
const HUB_IMAGE_HOSTS = [/^huggingface\.co$/, /\.huggingface\.co$/, /^hf\.co$/, /\.hf\.co$/];

export const repoWebPath = (kind: RepoKind, id: string): string => hubWebPath(hubKindOfRepo(kind), id);

/**
 * Resolves a card's URLs as huggingface.co does: relative links to `<endpoint>/<repo>/blob/main/…`, relative
 * images to `…/resolve/main/…`. Links keep only http(s), mailto and in-page anchors; images load only from the
 * Hub's hosts or the configured endpoint. Anything else is refused (`null`).
 */
export function hubUrlRewriter(endpoint: string, kind: RepoKind, id: string) {
  const origin = new URL(endpoint).origin;
  const endpointHost = new URL(endpoint).host;
  const base = `${endpoint.replace(/\/+$/, '')}/${repoWebPath(kind, id)}`;
  return (raw: string, what: 'link' | 'image'): string | null => {
    const url = raw.trim();
    if (!url) return null;
    if (what === 'link' && url.startsWith('#')) return url;
    let resolved: URL;
    try {
      const relative = !/^[a-z][a-z0-9+.-]*:/i.test(url) && !url.startsWith('//');
      resolved = relative
        ? new URL(url, `${base}/${what === 'link' ? 'blob' : 'resolve'}/main/`)
        : new URL(url.startsWith('//') ? `https:${url}` : url);
    } catch {
      return null;
    }
    if (what === 'link') return ['http:', 'https:', 'mailto:'].includes(resolved.protocol) ? resolved.href : null;
    const hubHost = resolved.protocol === 'https:' && HUB_IMAGE_HOSTS.some((h) => h.test(resolved.hostname));
    return hubHost || (resolved.origin === origin && resolved.host === endpointHost) ? resolved.href : null;
  };
}

export type UrlRewriter = ReturnType<typeof hubUrlRewriter>;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const REF_DEF = /^ {0,3}\[[^\]]+\]:\s*\S/;

/**
 * Splits markdown into pieces of about `target` characters at blank lines outside code fences, so a long card
 * renders piece by piece. Reference-style link definitions are copied into every piece so `[x][1]` still resolves.
 */
export function splitMarkdown(markdown: string, target = 8_000): string[] {
  if (markdown.length <= target) return [markdown];
  const lines = markdown.split('\n');
  const defs: string[] = [];
  const pieces: string[] = [];
  let fence: string | undefined;
  let start = 0;
  let size = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    size += line.length + 1;
    const f = FENCE.exec(line);
    if (f) {
      if (!fence) fence = f[1][0];
      else if (line.trim().startsWith(fence.repeat(3))) fence = undefined;
    } else if (!fence && REF_DEF.test(line)) defs.push(line);
    if (!fence && size >= target && line.trim() === '') {
      pieces.push(lines.slice(start, i + 1).join('\n'));
      start = i + 1;
      size = 0;
    }
  }
  if (start < lines.length) pieces.push(lines.slice(start).join('\n'));
  if (defs.length === 0 || pieces.length === 1) return pieces;
  const tail = `\n\n${defs.join('\n')}\n`;
  return pieces.map((p) => p + tail);
}
