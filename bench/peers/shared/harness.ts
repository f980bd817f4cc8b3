/**
 * What every peer page shares: reads the same NDJSON stream from the Ollama fixture (POST /api/chat, proxied by the
 * bench's page server) and hands the growing text to the peer's renderer once per animation frame, as a chat app
 * batches its updates; or opens a finished message (GET /finished.md). The bench drives it through `window.__peer`.
 */
export interface PeerRenderer {
  /** Shows `text` (the whole message so far); `done` once the reply is complete. */
  render(text: string, done: boolean): void;
}

export interface PeerControl {
  stream(): Promise<void>;
  open(): Promise<void>;
}

declare global {
  interface Window {
    __peer: PeerControl;
  }
}

export function mountPeer(renderer: PeerRenderer): void {
  const el = document.getElementById('msg')!;
  let text = '';
  let done = false;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    renderer.render(text, done);
    if (done) el.dataset.status = 'complete';
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(flush);
  };

  window.__peer = {
    async stream() {
      text = '';
      done = false;
      el.dataset.status = 'streaming';
      const res = await fetch('/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'llama3.2:latest',
          messages: [{ role: 'user', content: 'Show me everything' }],
          stream: true,
        }),
      });
      if (!res.ok || !res.body) throw new Error(`chat failed: ${res.status}`);
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = '';
      for (;;) {
        const { value, done: end } = await reader.read();
        if (end) break;
        buf += value;
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (!line.trim()) continue;
          const obj = JSON.parse(line) as { message?: { content?: string }; done?: boolean; error?: string };
          if (obj.error) throw new Error(obj.error);
          text += obj.message?.content ?? '';
          if (obj.done) done = true;
        }
        schedule();
      }
      done = true;
      schedule();
    },
    async open() {
      text = await (await fetch('/finished.md')).text();
      done = true;
      flush(); // a finished message renders at once, not on the next frame
    },
  };
}
