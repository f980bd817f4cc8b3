import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Agent, ProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici';
import { createLogger } from '../../electron/main/services/log';
import { keyedFetch } from '../../electron/main/services/net/bound-fetch';
import { Network } from '../../electron/main/services/net/network';
import { downloadOnce } from '../lib/download';
import { figure, type BenchContext, type Figure } from '../lib/measure';

const REPO = 'bench/proxy-GGUF';
const FILE = 'proxy-Q4_K_M.gguf';
const SIZE = 128 * 1024 * 1024;

interface Stack {
  caFile: string;
  caPem: string;
  hubPort: number;
  cdn: { proxy: string; direct: string };
  cdnPath: string;
  proxy: string;
}

/** The stand-ins (bench/lib/network-stack.ts) in a child process, and a way to tell it which CDN to redirect to. */
async function startStack(dir: string) {
  const child = spawn(
    process.execPath,
    [resolve(import.meta.dirname, '../network-stack.mjs'), dir, REPO, FILE, String(SIZE)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error('the network stand-ins stopped');
    return value as string;
  };
  const stack = JSON.parse(await next()) as Stack;
  const ask = async (line: string) => {
    child.stdin.write(`${line}\n`);
    return next();
  };
  return { stack, ask, stop: () => child.stdin.end() };
}

/**
 * A company network's cost: the same HubDesk download (tree, resolve → 302 → CDN, sha256 checked) of a 128 MB file
 * over TLS from a company CA, through the CONNECT proxy stand-in (hub.test / cdn.test exist only inside it) against
 * direct to the same TLS servers (as `localhost`, which never goes through a proxy). The stand-ins run in a process of
 * their own, as a real proxy is another machine. Alternating, in MB/s. Target: ≥ 0.9× direct. The floor: undici's
 * plain fetch of the CDN file, through the stand-in and direct.
 */
export async function networkProxy(ctx: BenchContext): Promise<Figure[]> {
  const root = mkdtempSync(join(tmpdir(), 'hubdesk-bench-net-'));
  const { stack, ask, stop } = await startStack(root);
  const log = createLogger();
  const network = (env: Record<string, string>) =>
    new Network({ env, settings: () => ({ noProxy: '', caFile: stack.caFile }), log });
  const proxied = network({ HTTPS_PROXY: stack.proxy });
  const direct = network({});
  const tls = { ca: [stack.caPem] };
  const plainProxy = new ProxyAgent({ uri: stack.proxy, requestTls: tls });
  const plainDirect = new Agent({ connect: tls });
  const mbps = (ms: number) => SIZE / 1e6 / (ms / 1000);
  const series = {
    through: [] as number[],
    straight: [] as number[],
    floorThrough: [] as number[],
    floorStraight: [] as number[],
  };

  const hubDesk = async (net: Network, endpoint: string, dir: string) => {
    const fetch = keyedFetch(() => undefined, 'Bearer', { secrets: () => [], base: net.fetch });
    const ms = await downloadOnce({ dir, endpoint, fetch, log, repo: REPO, file: FILE });
    rmSync(dir, { recursive: true, force: true });
    return mbps(ms);
  };
  const plain = async (url: string, dispatcher: Dispatcher) => {
    const path = join(root, 'plain');
    const t = performance.now();
    const res = await undiciFetch(`${url}${stack.cdnPath}?X-Amz-Signature=bench`, { dispatcher });
    if (!res.ok || !res.body) throw new Error(`plain fetch: ${res.status}`);
    await pipeline(Readable.fromWeb(res.body), createWriteStream(path));
    rmSync(path, { force: true });
    return mbps(performance.now() - t);
  };
  const viaProxy = async (run: number) => {
    await ask('proxy');
    series.through.push(await hubDesk(proxied, 'https://hub.test', join(root, `p-${run}`)));
    series.floorThrough.push(await plain(stack.cdn.proxy, plainProxy));
  };
  const viaDirect = async (run: number) => {
    await ask('direct');
    series.straight.push(await hubDesk(direct, `https://localhost:${stack.hubPort}`, join(root, `d-${run}`)));
    series.floorStraight.push(await plain(stack.cdn.direct, plainDirect));
  };
  try {
    // The fixture hashes the file once, outside the clock.
    await viaDirect(-1);
    series.straight.length = 0;
    series.floorStraight.length = 0;
    for (let run = 0; run < ctx.runs(5, 3); run++) {
      // Alternating which goes first, so neither always meets a warm page cache.
      if (run % 2) await viaDirect(run).then(() => viaProxy(run));
      else await viaProxy(run).then(() => viaDirect(run));
      const last = (s: number[]) => s.at(-1)!.toFixed(0);
      ctx.log(
        `run ${run + 1}: HubDesk through the proxy ${last(series.through)} MB/s, direct ${last(series.straight)} MB/s; ` +
          `undici's plain fetch through it ${last(series.floorThrough)} MB/s, direct ${last(series.floorStraight)} MB/s`,
      );
    }
    if (Number(await ask('tunnels')) === 0) throw new Error('the proxied downloads did not go through the proxy');
  } finally {
    await Promise.all([proxied.close(), direct.close(), plainProxy.close(), plainDirect.close()]);
    stop();
    rmSync(root, { recursive: true, force: true });
  }
  return [
    figure('network-proxy-download', 'MB/s', series.through, {
      baseline: series.straight,
      target: '≥ 0.9× the same download direct',
      note: '128 MB over TLS from a company CA, via a CONNECT proxy stand-in in its own process, sha256 checked',
    }),
    figure('network-proxy-floor', 'MB/s', series.floorThrough, {
      baseline: series.floorStraight,
      note: "the floor: undici's plain fetch of the same file through the same stand-in, against direct",
    }),
  ];
}
