import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../electron/main/services/log';
import { launchFile, parseWebArgs } from '../../electron/main/web/args';
import { tempDir } from '../helpers/app';

describe('web mode options', () => {
  it('reads --port, --data-dir and --open, with a space or =', () => {
    expect(parseWebArgs(['--port', '8080', '--data-dir=/tmp/x', '--open'])).toEqual({
      port: 8080,
      dataDir: '/tmp/x',
      open: true,
    });
    expect(parseWebArgs(['--port=0'])).toEqual({ port: 0, open: false });
  });

  it.each([
    ['--portX', '1'],
    ['--port8080'],
    ['--data-dirs', 'x'],
    ['--opener'],
    ['--open=yes'],
    ['--port', '-1'],
    ['--port', '1e3'],
    ['--port', '70000'],
    ['--port'],
    ['-p', '1'],
  ])('%s is an error, not a guess', (...argv) => {
    expect(() => parseWebArgs(argv as string[])).toThrow();
  });

  it('--open hands the browser a private file, never the secret on a command line', () => {
    const url = 'http://127.0.0.1:1234/#token=s3cr3t-"<x>&y';
    const file = launchFile(url, 60_000);
    expect(file).not.toContain('s3cr3t');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const html = readFileSync(file, 'utf8');
    expect(html).toContain('url=http://127.0.0.1:1234/#token=s3cr3t-&#34;&#60;x&#62;&#38;y');
    expect(html).not.toMatch(/<script/i);
    rmSync(dirname(file), { recursive: true, force: true });
  });
});

describe('log files', () => {
  it('are 0600, capped in size and rotated, keeping the newest lines', () => {
    const dir = tempDir();
    const file = join(dir.path, 'logs', 'hubdesk.log');
    const log = createLogger({ file, maxBytes: 2000, keep: 2 });
    for (let i = 0; i < 200; i++) log.info(`line ${i}`, { pad: 'x'.repeat(40) });
    const names = readdirSync(join(dir.path, 'logs')).sort();
    expect(names).toEqual(['hubdesk.log', 'hubdesk.log.1', 'hubdesk.log.2']);
    for (const n of names) {
      const st = statSync(join(dir.path, 'logs', n));
      expect(st.size).toBeLessThanOrEqual(2000);
      expect(st.mode & 0o777).toBe(0o600);
    }
    expect(readFileSync(file, 'utf8')).toContain('line 199');
    dir.remove();
  });

  it('a huge value is cut to a short line, and secrets are masked', () => {
    const dir = tempDir();
    const file = join(dir.path, 'x.log');
    const log = createLogger({ file, secrets: () => ['topsecretvalue'] });
    log.info('big', { v: 'y'.repeat(1_000_000) });
    log.info('has topsecretvalue inside');
    const text = readFileSync(file, 'utf8');
    expect(text.length).toBeLessThan(1000);
    expect(text).not.toContain('topsecretvalue');
    dir.remove();
  });
});
