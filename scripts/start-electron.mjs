// `npm start` after the build: `electron .`, but when Electron's binary cannot be fetched (it is downloaded on first
// use, so the first start needs the network) or found, one line that says what to do instead of a stack trace.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = dirname(dirname(fileURLToPath(import.meta.url)));

/** Prints the one line and exits. */
function fail(what, reason) {
  const why = reason ? ` (${reason})` : '';
  process.stderr.write(
    `HubDesk: ${what}${why}. npm start downloads Electron once, so the first start needs the network; ` +
      'or run `npm run web` for the app in your browser, without Electron.\n',
  );
  process.exit(1);
}

/** The first line of an error's text that says something (a stack's first line is its message). */
const firstLine = (text) =>
  String(text)
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l && !l.startsWith('at ')) ?? '';

let install;
try {
  install = require.resolve('electron/install.js');
} catch {
  fail('the electron package is not installed', 'run npm install');
}
// The package's own installer: a no-op when the binary is there, else it downloads it (quietly, its error kept).
const fetched = spawnSync(process.execPath, [install], { stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
if (fetched.status !== 0) fail("Electron's binary could not be fetched", firstLine(fetched.stderr ?? fetched.error));

let electron;
try {
  electron = require('electron');
} catch (e) {
  fail("Electron's binary could not be found", firstLine(e instanceof Error ? e.message : e));
}
const child = spawn(electron, [root, ...process.argv.slice(2)], { stdio: 'inherit', windowsHide: false });
child.on('error', (e) => fail(`Electron could not be started from ${electron}`, e.message));
child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
