import { existsSync, readFileSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { chatMessageSchema, type ChatMessage } from '@shared/contract/chat-message';
import { conversationMetaSchema } from '@shared/contract/chat-conversation';
import type { Logger } from '../../log';
import type { ChatDb } from './db';
import { readJournal, replay } from './journal';
import { insertLinear, rowToMessage, rowToMeta } from './rows';

/** Where the journals go once every conversation was imported and read back identical. */
const backupDirOf = (legacyDir: string) => `${legacyDir}.journal-backup`;

export interface ImportReport {
  imported: number;
  skipped: { id: string; reason: string }[];
  backup?: string;
}

/**
 * Imports the JSONL journals of earlier versions (`<legacyDir>/c_…/{meta.json,journal.jsonl}`), each
 * conversation in its own transaction, then reads each back and compares it with its source. Only when every
 * one matched is the folder renamed to a backup; otherwise it stays where it is (and the next start retries
 * what is missing). The journals themselves are only read, never repaired or changed.
 */
export function importJournals(db: ChatDb, legacyDir: string, log: Logger): ImportReport {
  const report: ImportReport = { imported: 0, skipped: [] };
  if (!existsSync(legacyDir)) return report;
  for (const name of readdirSync(legacyDir)) {
    if (!/^c_[a-z0-9]+$/.test(name)) continue;
    try {
      const dir = join(legacyDir, name);
      const meta = conversationMetaSchema.parse(JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')));
      const { records, report: jr } = readJournal(join(dir, 'journal.jsonl'));
      if (jr.badLines) log.warn('journal lines unreadable; skipped', { id: name, badLines: jr.badLines });
      const messages: ChatMessage[] = replay(records).map((raw) => {
        const m = chatMessageSchema.parse(raw);
        // A reply that was streaming when that version stopped.
        return m.status === 'streaming' ? { ...m, status: 'interrupted' as const } : m;
      });
      const source = { ...meta, messageCount: messages.length };
      if (!db.conversation(meta.id)) insertLinear(db, source, messages);
      const row = db.conversation(meta.id)!;
      const back = { meta: rowToMeta(row), messages: db.messages(meta.id).map(rowToMessage) };
      if (!isDeepStrictEqual(JSON.parse(JSON.stringify(back)), JSON.parse(JSON.stringify({ meta: source, messages }))))
        throw new Error('the imported copy differs from the journal');
      report.imported++;
    } catch (e) {
      report.skipped.push({ id: name, reason: String((e as Error).message) });
    }
  }
  if (report.skipped.length === 0) {
    const backup = backupDirOf(legacyDir);
    if (!existsSync(backup)) {
      renameSync(legacyDir, backup);
      report.backup = backup;
    }
  } else log.warn('some journals were not imported; they stay in place', { skipped: report.skipped });
  if (report.imported || report.skipped.length) log.info('chat journals imported', { ...report });
  return report;
}
