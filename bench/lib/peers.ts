import { createReadStream, existsSync, rmSync, statSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { build } from 'vite';

/** The renderers chat apps use, each as a minimal page in bench/peers/<name>/ built from npm. */
export const PEERS = ['streamdown', 'react-markdown', 'marked'] as const;

const root = process.cwd();
const src = join(root, 'bench/peers');
export const peersOut = join(root, 'bench/results/.peers');

/** Builds every peer page with Vite (production mode, minified, like an app's release build). */
export async function buildPeers(): Promise<void> {
  rmSync(peersOut, { recursive: true, force: true });
  // The bench runs inside Vite's dev server, which set NODE_ENV=development: React's production build needs this.
  const env = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await buildPages();
  } finally {
    process.env.NODE_ENV = env;
  }
}

async function buildPages(): Promise<void> {
  await build({
    configFile: false,
    root: src,
    base: '/',
    mode: 'production',
    logLevel: 'error',
    plugins: [react()],
    build: {
      outDir: peersOut,
      emptyOutDir: true,
      minify: true,
      sourcemap: false,
      rolldownOptions: {
        input: Object.fromEntries(PEERS.map((p) => [p, join(src, p, 'index.html')])),
        // Built bundles are git-ignored and removed after the run; should one be left behind, lint skips it.
        output: { banner: '/* eslint-disable */' },
      },
    },
  });
}

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
};

export interface PeerServer {
  url: string;
  /** What GET /finished.md answers: the finished message a page opens. */
  finished: string;
  stop(): Promise<void>;
}

/**
 * Serves the built peer pages, the finished message, and proxies POST /api/chat to the Ollama fixture byte for
 * byte (same origin, so the pages need no CORS).
 */
export async function startPeerServer(ollamaUrl: string): Promise<PeerServer> {
  const state = { finished: '' };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/api/chat') {
      const target = new URL('/api/chat', ollamaUrl);
      const up = request(target, { method: req.method, headers: { 'content-type': 'application/json' } }, (r) => {
        res.writeHead(r.statusCode ?? 502, { 'content-type': r.headers['content-type'] ?? 'application/x-ndjson' });
        r.pipe(res);
      });
      up.on('error', () => res.destroy());
      req.pipe(up);
      return;
    }
    if (url.pathname === '/finished.md') {
      res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8', 'cache-control': 'no-store' });
      res.end(state.finished);
      return;
    }
    const rel = normalize(decodeURIComponent(url.pathname)).replace(/^([/\\])+/, '');
    let file = resolve(peersOut, rel);
    if (file.startsWith(peersOut) && existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!file.startsWith(peersOut) || !existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get finished() {
      return state.finished;
    },
    set finished(t: string) {
      state.finished = t;
    },
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
