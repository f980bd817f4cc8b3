import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { startConnectProxy } from '../../tests/fixtures/connect-proxy';
import { startHubFixture } from '../../tests/fixtures/hub';
import { makeTestCa } from '../../tests/fixtures/tls-ca';
import { startTlsFront } from '../../tests/fixtures/tls-front';

/**
 * The company network of the network-proxy figure, in a process of its own (as a real proxy and Hub are other
 * machines): the Hub fixture with one file, TLS fronts for hub.test and cdn.test (also valid as localhost), and the
 * CONNECT proxy. Prints what the bench needs as one JSON line; a line `proxy` or `direct` on stdin names the CDN
 * the next redirects go to, answered `ok`.
 */
export async function run(dir: string, repo: string, file: string, size: number): Promise<void> {
  const ca = makeTestCa(dir);
  const bytes = new Uint8Array(randomBytes(size));
  const hub = await startHubFixture({ models: [{ id: repo, files: { [file]: bytes } }] });
  const hubFront = await startTlsFront({ target: hub.url, ...ca.leaf({ names: ['hub.test', 'localhost'] }) });
  const cdnFront = await startTlsFront({ target: hub.cdn.url, ...ca.leaf({ names: ['cdn.test', 'localhost'] }) });
  const proxy = await startConnectProxy({
    hosts: { 'hub.test:443': `127.0.0.1:${hubFront.port}`, 'cdn.test:443': `127.0.0.1:${cdnFront.port}` },
  });
  const cdnPath = new URL(hub.cdn.link(bytes)).pathname;
  const cdn = { proxy: 'https://cdn.test', direct: `https://localhost:${cdnFront.port}` };
  process.stdout.write(
    `${JSON.stringify({ caFile: ca.caFile, caPem: ca.caPem, hubPort: hubFront.port, cdn, cdnPath, proxy: proxy.url })}\n`,
  );
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'tunnels') {
      process.stdout.write(`${proxy.log.filter((l) => l.method === 'CONNECT').length}\n`);
      continue;
    }
    hub.cdn.url = line === 'proxy' ? cdn.proxy : cdn.direct;
    process.stdout.write('ok\n');
  }
  await Promise.all([hub.stop(), hubFront.stop(), cdnFront.stop(), proxy.stop()]);
}
