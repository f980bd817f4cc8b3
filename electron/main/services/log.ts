import { appendFileSync, chmodSync, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(msg: string, data?: Record<string, unknown>): void;
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
}

interface LoggerOptions {
  /** JSON-lines log file (created 0600); omitted → nothing is written to disk. */
  file?: string;
  /** Current secret values: every one is masked in every line written. */
  secrets?: () => string[];
  /** Also echo to stderr (the CLI and web mode at debug level). */
  echo?: boolean;
  minLevel?: LogLevel;
  /** Size at which the file is rotated to `.1` (older ones shift up to `.{keep}`); default 5 MB. */
  maxBytes?: number;
  /** Rotated files kept; default 2. */
  keep?: number;
}

const order: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };
/** One line never exceeds this: a huge value in `data` cannot fill the disk in one write. */
const MAX_LINE = 16 * 1024;

/** What a secret is replaced with wherever main lets text out. */
export const REDACTED = '***';

/** Masks every secret value that occurs in a line of text. */
export function redact(text: string, secrets: string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join(REDACTED);
  return out;
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  const min = order[opts.minLevel ?? 'info'];
  const maxBytes = opts.maxBytes ?? 5 * 1024 * 1024;
  const keep = Math.max(1, opts.keep ?? 2);
  let size = 0;
  if (opts.file) {
    mkdirSync(dirname(opts.file), { recursive: true, mode: 0o700 });
    if (existsSync(opts.file)) {
      // Files from earlier versions were created with the default umask: only this user may read a log.
      chmodSync(opts.file, 0o600);
      size = statSync(opts.file).size;
    }
  }
  const rotate = (file: string) => {
    for (let i = keep; i >= 1; i--) {
      const from = i === 1 ? file : `${file}.${i - 1}`;
      if (existsSync(from)) renameSync(from, `${file}.${i}`);
    }
    size = 0;
  };
  const write = (level: LogLevel, msg: string, data?: Record<string, unknown>) => {
    if (order[level] < min) return;
    let line = redact(
      JSON.stringify({ t: new Date().toISOString(), level, msg, ...(data ? { data } : {}) }),
      opts.secrets?.() ?? [],
    );
    if (line.length > MAX_LINE)
      line = JSON.stringify({ t: new Date().toISOString(), level, msg: msg.slice(0, 200), truncated: true });
    if (opts.file) {
      try {
        const bytes = Buffer.byteLength(line) + 1;
        if (size + bytes > maxBytes && size > 0) rotate(opts.file);
        appendFileSync(opts.file, line + '\n', { mode: 0o600 });
        size += bytes;
      } catch {
        // A full disk or a removed data dir never turns logging into a failure of the call being logged.
      }
    }
    if (opts.echo) process.stderr.write(line + '\n');
  };
  return {
    debug: (m, d) => write('debug', m, d),
    info: (m, d) => write('info', m, d),
    warn: (m, d) => write('warn', m, d),
    error: (m, d) => write('error', m, d),
  };
}
