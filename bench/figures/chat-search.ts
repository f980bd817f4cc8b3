import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatMessage } from '@shared/contract/chat-message';
import { ChatDb } from '../../electron/main/services/chat/storage/db';
import { insertLinear } from '../../electron/main/services/chat/storage/rows';
import { searchChats } from '../../electron/main/services/chat/storage/search';
import { conversationMeta } from '../../tests/fixtures/conversation';
import { figure, percentile, type BenchContext, type Figure } from '../lib/measure';

/** A vocabulary with a natural (Zipf-like) spread: a few words everywhere, most rare. */
function vocabulary(n: number): string[] {
  const syll = ['ka', 'lo', 'mi', 'ren', 'tu', 'sa', 'vel', 'qu', 'dor', 'ni', 'pha', 'zen', 'tri', 'mo', 'gu'];
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) {
    let w = '';
    for (let k = i; ; k = Math.floor(k / syll.length) - 1) {
      w = syll[k % syll.length] + w;
      if (k < syll.length) break;
    }
    out.push(w);
  }
  return out;
}

/**
 * Search over 10,000 conversations × 50 messages (the quick mode: 1,000 × 50): one query per simulated keystroke
 * batch — single words, prefixes while typing, two words, phrases — p50 and p99 over every query of a run.
 */
export async function chatSearch(ctx: BenchContext): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'hubdesk-bench-search-'));
  try {
    const convs = ctx.quick ? 1_000 : 10_000;
    const perConv = 50;
    const words = vocabulary(5_000);
    let seed = 42;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed / 2 ** 31);
    const word = () => words[Math.floor(words.length * rnd() ** 3)];
    const sentence = (n: number) => Array.from({ length: n }, word).join(' ');
    const db = new ChatDb(join(dir, 'chats.sqlite'));
    // Building the data set is not what is measured: no fsync, the index built once at the end (as FTS5's
    // 'rebuild' does) instead of row by row through the triggers. The result is the same database.
    db.db.pragma('synchronous = OFF');
    const triggers = db.db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger'`).all() as {
      name: string;
      sql: string;
    }[];
    for (const t of triggers) db.db.exec(`DROP TRIGGER ${t.name}`);
    const t0 = performance.now();
    const at = new Date('2026-01-01T00:00:00Z').toISOString();
    for (let c = 0; c < convs; c++) {
      const meta = conversationMeta({
        id: `c_b${c}`,
        title: sentence(4),
        model: 'llama3.2',
        createdAt: at,
        updatedAt: at,
        messageCount: perConv,
      });
      const messages: ChatMessage[] = Array.from({ length: perConv }, (_, i) => ({
        id: `m_b${c}x${i}`,
        role: i % 2 ? 'assistant' : 'user',
        content: sentence(i % 2 ? 40 : 10),
        status: 'complete',
        createdAt: at,
      }));
      if (c % 500 === 0) {
        if (c) db.db.exec('COMMIT');
        db.db.exec('BEGIN');
      }
      insertLinear(db, meta, messages);
    }
    db.db.exec('COMMIT');
    db.db.exec(`INSERT INTO messages_fts(messages_fts) VALUES ('rebuild')`);
    db.db.exec(`INSERT INTO titles_fts(titles_fts) VALUES ('rebuild')`);
    for (const t of triggers) db.db.exec(t.sql);
    db.db.pragma('synchronous = FULL');
    ctx.log(`built ${convs * perConv} messages in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const queries: string[] = [];
    for (let i = 0; i < 25; i++) {
      const w = word();
      queries.push(w.slice(0, 2), w.slice(0, 4), w, `${w} ${word()}`);
    }
    queries.push(`"${words[3]} ${words[7]}"`, `"${words[100]} ${words[2]}"`);
    const slowest = new Map<string, number>();
    const p50: number[] = [];
    const p99: number[] = [];
    for (let r = 0; r < ctx.runs(5, 3); r++) {
      const times: number[] = [];
      for (const q of queries) {
        const t = performance.now();
        searchChats(db, q);
        const ms = performance.now() - t;
        times.push(ms);
        slowest.set(q, Math.max(ms, slowest.get(q) ?? 0));
      }
      p50.push(percentile(times, 50));
      p99.push(percentile(times, 99));
    }
    if (process.env.HUBDESK_BENCH_KEEP_DB) db.db.exec(`VACUUM INTO '${process.env.HUBDESK_BENCH_KEEP_DB}'`);
    db.close();
    const worst = [...slowest].sort((a, b) => b[1] - a[1]).slice(0, 5);
    ctx.log(`slowest queries: ${worst.map(([q, ms]) => `${q} ${ms.toFixed(1)} ms`).join(', ')}`);
    const label = `${convs.toLocaleString('en-US')} conversations × ${perConv}`;
    return [
      figure(`chat search p50 per query: ${label}`, 'ms', p50, { note: `${queries.length} queries a run` }),
      figure(`chat search p99 per query: ${label}`, 'ms', p99, { target: '≤ 50 ms' }),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
