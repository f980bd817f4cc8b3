import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The options of `npm run web` / `node out/main/web.js`. */
export interface WebArgs {
  port?: number;
  dataDir?: string;
  open: boolean;
}

const usage = 'known: --port N, --data-dir DIR, --open';

/** Option names are matched exactly (`--portX` is an error), as `--name value` or `--name=value`. */
export function parseWebArgs(argv: string[]): WebArgs {
  const args: WebArgs = { open: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const eq = a.indexOf('=');
    const name = eq >= 0 ? a.slice(0, eq) : a;
    const value = () => {
      const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined || v === '') throw new Error(`${name} needs a value`);
      return v;
    };
    if (name === '--open') {
      if (eq >= 0) throw new Error('--open takes no value');
      args.open = true;
    } else if (name === '--port') {
      const raw = value();
      const p = Number(raw);
      if (!/^\d+$/.test(raw) || p > 65535) throw new Error('--port takes a number from 0 to 65535');
      args.port = p;
    } else if (name === '--data-dir') args.dataDir = value();
    else throw new Error(`unknown option ${name.slice(0, 40)} (${usage})`);
  }
  return args;
}

/**
 * A file that sends the browser to `url`, readable by this user only. The browser is started with the file's
 * path: a command line is visible to every user of the machine (ps, /proc), so the secret never goes on one.
 */
export function launchFile(url: string, removeAfterMs = 120_000): string {
  const dir = mkdtempSync(join(tmpdir(), 'hubdesk-open-'));
  chmodSync(dir, 0o700);
  const file = join(dir, 'open.html');
  const safe = url.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
  writeFileSync(
    file,
    `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer">` +
      `<meta http-equiv="refresh" content="0;url=${safe}"><title>HubDesk</title><a href="${safe}">Open HubDesk</a>\n`,
    { mode: 0o600 },
  );
  // The browser reads it within seconds; afterwards nothing of the secret stays on disk.
  setTimeout(() => rmSync(dir, { recursive: true, force: true }), removeAfterMs).unref();
  return file;
}
