import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Downloads } from '../../electron/main/services/local/download/downloads';
import { createLogger } from '../../electron/main/services/log';
import { keyedFetch } from '../../electron/main/services/net/bound-fetch';
import { Network } from '../../electron/main/services/net/network';
import { startConnectProxy } from '../../tests/fixtures/connect-proxy';
import { startHubFixture } from '../../tests/fixtures/hub';
import { makeTestCa } from '../../tests/fixtures/tls-ca';
import { startTlsFront } from '../../tests/fixtures/tls-front';
import { figure, type BenchContext, type Figure } from '../lib/measure';

const REPO = 'bench/proxy-GGUF';
const FILE = 'proxy-Q4_K_M.gguf';
const SIZE = 128 * 1024 * 1024;

/**
 * A company network's cost: the same HubDesk download (tree, resolve → 302 → CDN, sha256 checked) of a 128 MB file
 * over TLS from a company CA, through the CONNECT proxy stand-in (hub.test / cdn.test exist only inside it) against
 * direct to the same TLS servers (as `localhost`, which never goes through a proxy). Alternating, in MB/s.
 * Target: ≥ 0.9× direct.
 */
export async function networkProxy(ctx: BenchContext): Promise<Figure[]> {
  const root = mkdtempSync(join(tmpdir(), 'hubdesk-bench-net-'));
  const ca = makeTestCa(root);
  const bytes = new Uint8Array(randomBytes(SIZE));
  const hub = await startHubFixture({ models: [{ id: REPO, files: { [FILE]: bytes } }] });
  const hubFront = await startTlsFront({ target: hub.url, ...ca.leaf({ names: ['hub.test', 'localhost'] }) });
  const cdnFront = await startTlsFront({ target: hub.cdn.url, ...ca.leaf({ names: ['cdn.test', 'localhost'] }) });
  const proxy = await startConnectProxy({
    hosts: { 'hub.test:443': `127.0.0.1:${hubFront.port}`, 'cdn.test:443': `127.0.0.1:${cdnFront.port}` },
  });
  const log = createLogger();
  const network = (env: Record<string, string>) =>
    new Network({ env, settings: () => ({ noProxy: '', caFile: ca.caFile }), log });
  const proxied = network({ HTTPS_PROXY: proxy.url });
  const direct = network({});
  const mbps = (ms: number) => SIZE / 1e6 / (ms / 1000);
  const through: number[] = [];
  const straight: number[] = [];
  const once = async (net: Network, endpoint: string, cdn: string, dir: string) => {
    hub.cdn.url = cdn;
    const fetch = keyedFetch(() => undefined, 'Bearer', { secrets: () => [], base: net.fetch });
    const dl = new Downloads({ dir, endpoint: () => endpoint, fetch, log, freeBytes: async () => 1e12 });
    const t = performance.now();
    const done = new Promise<void>((ok, fail) =>
      dl.onChange(() => {
        const d = dl.list()[0];
        if (d?.state === 'done') ok();
        if (d?.state === 'failed') fail(new Error(d.error?.message));
      }),
    );
    await dl.start({ repo: REPO, file: FILE });
    await done;
    await dl.dispose();
    rmSync(dir, { recursive: true, force: true });
    return mbps(performance.now() - t);
  };
  const viaProxy = async (run: number) =>
    through.push(await once(proxied, 'https://hub.test', 'https://cdn.test', join(root, `p-${run}`)));
  const viaDirect = async (run: number) =>
    straight.push(
      await once(
        direct,
        `https://localhost:${hubFront.port}`,
        `https://localhost:${cdnFront.port}`,
        join(root, `d-${run}`),
      ),
    );
  try {
    await viaDirect(-1); // the fixture hashes the file once, outside the clock
    straight.length = 0;
    for (let run = 0; run < ctx.runs(5, 3); run++) {
      // Alternating which goes first, so neither always meets a warm page cache.
      if (run % 2) await viaDirect(run).then(() => viaProxy(run));
      else await viaProxy(run).then(() => viaDirect(run));
      ctx.log(
        `run ${run + 1}: through the proxy ${through.at(-1)!.toFixed(0)} MB/s, direct ${straight.at(-1)!.toFixed(0)} MB/s`,
      );
    }
    const tunnels = proxy.log.filter((l) => l.method === 'CONNECT').length;
    if (!tunnels) throw new Error('the proxied downloads did not go through the proxy');
  } finally {
    await Promise.all([proxied.close(), direct.close()]);
    await Promise.all([hub.stop(), hubFront.stop(), cdnFront.stop(), proxy.stop()]);
    rmSync(root, { recursive: true, force: true });
  }
  return [
    figure('network-proxy-download', 'MB/s', through, {
      baseline: straight,
      target: '≥ 0.9× the same download direct',
      note: '128 MB over TLS from a company CA, via a CONNECT proxy stand-in, sha256 checked',
    }),
  ];
}
