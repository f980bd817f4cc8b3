import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** The same Debian Chromium, with the same flags, as the e2e tests. */
export { launchBrowser as launchChromium } from '../../tests/e2e/harness';

/** Spawns a Node process that prints `<prefix> <url>` and resolves with the URL once it does. */
export async function spawnServer(
  args: string[],
  prefix: RegExp,
  env: Record<string, string> = {},
): Promise<{ url: string; proc: ChildProcess; stop(): Promise<void> }> {
  const proc = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((ok, fail) => {
    proc.once('exit', (c) => fail(new Error(`server exited with ${c}`)));
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      const m = prefix.exec(line);
      if (m) ok(m[1]);
    });
  });
  return {
    url,
    proc,
    stop: async () => {
      if (proc.exitCode !== null) return;
      const done = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await done;
    },
  };
}
