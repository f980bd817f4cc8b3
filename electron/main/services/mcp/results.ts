import type { McpContent } from '@shared/contract/mcp';

/** Bounds on what a tool result may carry into the app (and later into a model's context). */
export const RESULT_TEXT_MAX = 512 * 1024;
const RESULT_BINARY_MAX = 8 * 1024 * 1024;

const size = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.round(n / 1024)} KB`);

/** Converts the SDK's content parts, cutting text past RESULT_TEXT_MAX and dropping oversized binaries, with a note. */
export function boundContent(parts: unknown[]): { content: McpContent[]; truncated: boolean } {
  let textLeft = RESULT_TEXT_MAX;
  let binLeft = RESULT_BINARY_MAX;
  let truncated = false;
  const text = (t: string): string => {
    if (t.length <= textLeft) {
      textLeft -= t.length;
      return t;
    }
    truncated = true;
    const kept = t.slice(0, Math.max(0, textLeft));
    textLeft = 0;
    return `${kept}\n… [cut by HubDesk: the tool returned ${size(t.length)}; the first ${size(kept.length)} are kept]`;
  };
  const content: McpContent[] = [];
  for (const raw of parts.slice(0, 200)) {
    const p = raw as Record<string, unknown>;
    if (p.type === 'text' && typeof p.text === 'string') content.push({ type: 'text', text: text(p.text) });
    else if ((p.type === 'image' || p.type === 'audio') && typeof p.data === 'string') {
      const mimeType = typeof p.mimeType === 'string' ? p.mimeType : 'application/octet-stream';
      if (p.data.length > binLeft) {
        truncated = true;
        content.push({ type: 'text', text: `[${p.type} of ${size(p.data.length)} left out by HubDesk: too large]` });
      } else {
        binLeft -= p.data.length;
        content.push({ type: p.type, mimeType, data: p.data });
      }
    } else if (p.type === 'resource' && typeof p.resource === 'object' && p.resource) {
      const r = p.resource as Record<string, unknown>;
      content.push({
        type: 'resource',
        uri: String(r.uri ?? ''),
        mimeType: typeof r.mimeType === 'string' ? r.mimeType : undefined,
        text: text(typeof r.text === 'string' ? r.text : `[binary resource, ${size(String(r.blob ?? '').length)}]`),
      });
    } else content.push({ type: 'other', text: text(JSON.stringify(p).slice(0, 4096)) });
  }
  if (parts.length > 200) truncated = true;
  return { content, truncated };
}

/** The last KB of a bounded log, e.g. to explain why a server exited. */
export class RingLog {
  private text = '';
  private cut = false;

  constructor(private readonly max = 64 * 1024) {}

  append(chunk: string): void {
    this.text += chunk;
    if (this.text.length > this.max) {
      this.text = this.text.slice(-this.max);
      this.cut = true;
    }
  }

  read(): { text: string; truncated: boolean } {
    return { text: this.text, truncated: this.cut };
  }

  /** The last non-empty line, for an error message. */
  lastLine(): string {
    const lines = this.text.trimEnd().split('\n');
    return (lines.at(-1) ?? '').slice(0, 300);
  }
}
