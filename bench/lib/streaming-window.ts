import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { markdownStream } from '../../tests/fixtures/markdown-stream';

/** Tokens the page shows per second: a fast local model's reply. */
const RATE = 1_000;

export interface StreamingWindow {
  /** Ends the stream and closes the page; returns the frames it painted per second meanwhile. */
  stop(): Promise<{ fps: number }>;
}

/**
 * A Chromium page doing what a window does while a reply streams: every frame it appends the tokens that arrived
 * (1,000/s) and renders the whole reply again as Markdown (marked, as a streaming renderer re-parses the growing text),
 * starting over when the reply ends. It keeps the renderer's core busy while llama.cpp's threads run.
 */
export async function startStreamingWindow(browser: Browser): Promise<StreamingWindow> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.setContent('<!doctype html><div id="msg" style="max-width:820px;margin:0 auto;font:15px/1.5 sans-serif">');
  // The UMD build beside the package's entry (its exports map names only the ESM one).
  const entry = createRequire(import.meta.url).resolve('marked');
  await page.addScriptTag({ path: join(dirname(entry), 'marked.umd.js') });
  await page.evaluate(
    ({ chunks, rate }) => {
      const w = window as unknown as {
        marked: { parse(md: string): string };
        __window: { on: boolean; frames: number; started: number };
      };
      const el = document.getElementById('msg')!;
      w.__window = { on: true, frames: 0, started: performance.now() };
      let shown = 0;
      let text = '';
      let from = performance.now();
      const frame = (t: number) => {
        if (!w.__window.on) return;
        w.__window.frames++;
        const due = Math.min(chunks.length, Math.floor(((t - from) / 1000) * rate));
        if (due >= chunks.length) {
          shown = 0;
          text = '';
          from = t;
        } else if (due > shown) {
          text += chunks.slice(shown, due).join('');
          shown = due;
          el.innerHTML = w.marked.parse(text);
          window.scrollTo(0, document.body.scrollHeight);
        }
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    },
    { chunks: markdownStream(8_000).chunks, rate: RATE },
  );
  return {
    stop: async () => {
      const fps = await page.evaluate(() => {
        const s = (window as unknown as { __window: { on: boolean; frames: number; started: number } }).__window;
        s.on = false;
        return s.frames / ((performance.now() - s.started) / 1000);
      });
      await page.close();
      return { fps };
    },
  };
}
