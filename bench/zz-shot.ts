import { markdownStream } from '../tests/fixtures/markdown-stream';
import { fixtureModel, startOllamaFixture } from '../tests/fixtures/ollama';
import { launchChromium } from './lib/browser';
import { buildPeers, PEERS, startPeerServer } from './lib/peers';
import { installProbe, finishProbe } from './lib/md-probe';

export async function main() {
  await buildPeers();
  const fixture = await startOllamaFixture({ models: [fixtureModel('llama3.2')] });
  const srv = await startPeerServer(fixture.url);
  const browser = await launchChromium();
  fixture.chatScript = () => ({ content: markdownStream(600).chunks });
  fixture.chunkIntervalMs = 0;
  for (const p of PEERS) {
    const page = await browser.newPage({ viewport: { width: 1000, height: 1400 } });
    page.on('console', (m) => console.error(p, m.text()));
    page.on('requestfailed', (r) => console.error(p, 'FAIL', r.url()));
    page.on('response', (r) => r.status() >= 400 && console.error(p, r.status(), r.url()));
    page.on('pageerror', (e) => console.error(p, 'ERR', e.message));
    await page.goto(`${srv.url}/${p}/`);
    await page.waitForFunction(() => 'stream' in ((window as any).__peer ?? {}));
    await installProbe(page, '#msg', true);
    await page.evaluate(() => void (window as any).__peer.stream());
    const r = await finishProbe(page, '#msg', '#msg[data-status="complete"]');
    console.error(p, JSON.stringify(r));
    await page.screenshot({ path: `/tmp/mdt/${p}.png` });
    await page.close();
  }
  await browser.close();
  await srv.stop();
  await fixture.stop();
}
