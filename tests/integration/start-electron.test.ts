import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/app';

const script = resolve(import.meta.dirname, '../../scripts/start-electron.mjs');

/** A loopback port nothing listens on: the download is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  await new Promise((ok) => server.close(ok));
  return port;
}

describe('npm start without an Electron binary', () => {
  it("says in one line that Electron's binary could not be fetched, and why, instead of a stack trace", async () => {
    const cache = tempDir();
    try {
      const env = {
        PATH: process.env.PATH ?? '',
        HOME: cache.path,
        // Not installed (whatever this machine has), fetched from a mirror that refuses, into an empty cache.
        ELECTRON_OVERRIDE_DIST_PATH: join(cache.path, 'no-electron'),
        ELECTRON_MIRROR: `http://127.0.0.1:${await closedPort()}/`,
        electron_config_cache: cache.path,
      };
      const child = spawn(process.execPath, [script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((ok) => child.on('close', ok));
      expect(code).toBe(1);
      const lines = stderr.trimEnd().split('\n');
      expect(lines, stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^HubDesk: Electron's binary could not be fetched \(.+\)\. .*needs the network/);
      expect(lines[0]).toContain('npm run web');
    } finally {
      cache.remove();
    }
  });
});
