import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(msg: string, data?: Record<string, unknown>): void;
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
}

export interface LoggerOptions {
  /** JSON-lines log file; omitted → nothing is written to disk. */
  file?: string;
  /** Current secret values: every one is masked in every line written. */
  secrets?: () => string[];
  /** Also echo to stderr (the CLI and web mode at debug level). */
  echo?: boolean;
  minLevel?: LogLevel;
}

const order: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** Masks every secret value that occurs in a line of text. */
export function redact(text: string, secrets: string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('***');
  return out;
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  const min = order[opts.minLevel ?? 'info'];
  if (opts.file) mkdirSync(dirname(opts.file), { recursive: true });
  const write = (level: LogLevel, msg: string, data?: Record<string, unknown>) => {
    if (order[level] < min) return;
    const line = redact(
      JSON.stringify({ t: new Date().toISOString(), level, msg, ...(data ? { data } : {}) }),
      opts.secrets?.() ?? [],
    );
    if (opts.file) appendFileSync(opts.file, line + '\n');
    if (opts.echo) process.stderr.write(line + '\n');
  };
  return {
    debug: (m, d) => write('debug', m, d),
    info: (m, d) => write('info', m, d),
    warn: (m, d) => write('warn', m, d),
    error: (m, d) => write('error', m, d),
  };
}
