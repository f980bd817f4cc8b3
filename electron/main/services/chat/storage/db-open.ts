import { createRequire } from 'node:module';
import type Database from 'libsql';
import { MIGRATIONS } from './migrations';

/**
 * The chat database: one SQLite file (libsql), WAL, synchronous=FULL so a committed write survives a crash of
 * the process or the machine. Free of app imports (no zod, no AppError) so the crash test's child process runs
 * this very code.
 */

export type Db = InstanceType<typeof Database>;

/**
 * libsql, a native module of ~9 MB (~13 ms to load): loaded when the first database opens, not with the services
 * (their first load is what the app's first call waits for).
 */
let libsql: typeof Database | undefined;
const loadLibsql = (): typeof Database => (libsql ??= createRequire(import.meta.url)('libsql') as typeof Database);

export const SCHEMA_VERSION = MIGRATIONS.length;

export class DbOpenError extends Error {
  constructor(
    readonly reason: 'corrupt' | 'locked' | 'newer' | 'migration' | 'io',
    message: string,
  ) {
    super(message);
  }
}

/** The SQLite error code libsql attaches (SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_BUSY…), if any. */
export function sqliteCode(e: unknown): string {
  const code = (e as { code?: unknown })?.code;
  return typeof code === 'string' ? code : '';
}

function classify(e: unknown, file: string): DbOpenError {
  if (e instanceof DbOpenError) return e;
  const code = sqliteCode(e);
  const msg = String((e as Error)?.message ?? e);
  if (/NOTADB|CORRUPT/.test(code) || /not a database|malformed/i.test(msg))
    return new DbOpenError('corrupt', `The chat database ${file} is damaged (${msg}). It was left untouched.`);
  if (/BUSY|LOCKED/.test(code) || /locked|busy/i.test(msg))
    return new DbOpenError(
      'locked',
      `The chat database ${file} is in use by another program (another HubDesk window?). Close it and try again.`,
    );
  if (/FULL/.test(code) || /disk is full|database or disk is full/i.test(msg))
    return new DbOpenError('io', `The disk holding ${file} is full. Free some space and try again.`);
  return new DbOpenError('io', `The chat database ${file} could not be opened: ${msg}`);
}

/** The schema version (libsql's `pragma(…, {simple: true})` returns the row, not the value). */
export function userVersion(db: Db): number {
  return Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
}

/** Runs the missing migrations, each in its own transaction: a failure leaves the previous version intact. */
function migrate(db: Db, file: string, migrations: string[] = MIGRATIONS): void {
  const version = userVersion(db);
  if (version > migrations.length)
    throw new DbOpenError(
      'newer',
      `The chat database ${file} was written by a newer HubDesk (schema ${version}, this one knows ${migrations.length}). Update HubDesk; the file was left untouched.`,
    );
  for (let v = version; v < migrations.length; v++) {
    try {
      db.exec('BEGIN IMMEDIATE');
      db.exec(migrations[v]);
      db.exec(`PRAGMA user_version = ${v + 1}`);
      db.exec('COMMIT');
    } catch (e) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw new DbOpenError(
        'migration',
        `Upgrading the chat database ${file} to schema ${v + 1} failed (${String((e as Error).message)}); it was left at schema ${v}.`,
      );
    }
  }
}

/** Opens (creating if needed) and migrates; throws DbOpenError with a message a person can act on. */
export function openDb(file: string, migrations: string[] = MIGRATIONS): Db {
  let db: Db | undefined;
  try {
    db = new (loadLibsql())(file);
    db.pragma('busy_timeout = 2000');
    // Reading the schema first surfaces a damaged or foreign file before anything is written.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    migrate(db, file, migrations);
    return db;
  } catch (e) {
    try {
      db?.close();
    } catch {
      /* already failing: the first error is the one to report */
    }
    throw classify(e, file);
  }
}
