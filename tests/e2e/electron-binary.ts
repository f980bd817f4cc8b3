import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Finds an Electron binary without `require('electron')` (which would try to download one):
 * ELECTRON_EXEC_PATH, or the path the electron package records in path.txt.
 */
export function electronBinary(): { path?: string; reason?: string } {
  const fromEnv = process.env.ELECTRON_EXEC_PATH;
  if (fromEnv)
    return existsSync(fromEnv) ? { path: fromEnv } : { reason: `ELECTRON_EXEC_PATH=${fromEnv} does not exist` };
  const pkg = resolve(import.meta.dirname, '../../node_modules/electron');
  const pathTxt = join(pkg, 'path.txt');
  if (!existsSync(pathTxt)) {
    return { reason: 'no Electron binary: node_modules/electron/dist is not downloaded here (set ELECTRON_EXEC_PATH)' };
  }
  const bin = join(pkg, 'dist', readFileSync(pathTxt, 'utf8').trim());
  return existsSync(bin) ? { path: bin } : { reason: `no Electron binary at ${bin} (set ELECTRON_EXEC_PATH)` };
}
