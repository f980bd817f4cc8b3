import { startBenchApp, watchFrames } from '../lib/app';
import { launchChromium } from '../lib/browser';
import { syntheticExport } from '../../tests/fixtures/conversation';
import { figure, percentile, type BenchContext, type Figure } from '../lib/measure';

/** Long chat: open and scroll a 10,000-message conversation; renderer heap against a 100-message one. */
export async function longChat(ctx: BenchContext): Promise<Figure[]> {
  const browser = await launchChromium();
  const app = await startBenchApp(browser, {});
  const origin = new URL(app.url).origin;
  const sizes = [100, 10_000];
  for (const n of sizes)
    await app.client.call('chat.import', { text: JSON.stringify(syntheticExport(n, `Bench chat of ${n} messages`)) });

  const paint: Record<number, number[]> = { 100: [], 10_000: [] };
  const heap: Record<number, number[]> = { 100: [], 10_000: [] };
  const scrollP99: number[] = [];
  const scrollP50: number[] = [];
  try {
    for (let r = 0; r < ctx.runs(3, 1); r++) {
      for (const n of sizes) {
        // A fresh page (the secret is kept in sessionStorage by the first load) for each conversation.
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
        await page.goto(app.url);
        await page.goto(`${origin}/#/chat`);
        const item = page.getByTestId('conv-item').filter({ hasText: `Bench chat of ${n} messages` });
        await item.waitFor();
        const t = performance.now();
        await item.click();
        await page.locator('[data-testid="message-list"] .msg-row').first().waitFor();
        await page.evaluate(() => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res))));
        paint[n].push(performance.now() - t);

        if (n === 10_000) {
          const w = await watchFrames(page);
          await page.evaluate(async () => {
            const el = document.querySelector('[data-testid="message-list"]') as HTMLElement;
            for (let i = 0; i < 240; i++) {
              el.scrollTop = Math.max(0, el.scrollTop - 700);
              await new Promise((res) => requestAnimationFrame(res));
            }
          });
          const { frames } = await w.stop();
          scrollP50.push(percentile(frames, 50));
          scrollP99.push(percentile(frames, 99));
        }
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('HeapProfiler.collectGarbage');
        const { usedSize } = await cdp.send('Runtime.getHeapUsage');
        heap[n].push(usedSize / 2 ** 20);
        await cdp.detach();
        await page.close();
      }
    }
  } finally {
    await app.stop();
    await browser.close();
  }
  return [
    figure('long chat: open 10,000 messages → painted', 'ms', paint[10_000], {
      baseline: paint[100],
      note: 'baseline: 100 messages',
    }),
    figure('long chat: scrolling 10,000 messages, frame p50', 'ms', scrollP50),
    figure('long chat: scrolling 10,000 messages, frame p99', 'ms', scrollP99, { target: '≤ 16.7 ms' }),
    figure('long chat: renderer JS heap, 10,000 messages', 'MB', heap[10_000], {
      baseline: heap[100],
      target: 'ratio < 2 (baseline: 100 messages)',
    }),
  ];
}
