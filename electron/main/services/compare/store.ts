import {
  compareRunSchema,
  compareSetSchema,
  type CompareRun,
  type CompareSet,
  type CompareSummary,
  type SavedCompareSet,
} from '@shared/contract/compare';
import type { ChatBackend } from '@shared/contract/chat-conversation';
import { AppError } from '@shared/errors';
import type { ChatStore } from '../chat/storage/store';
import { newId } from '../chat/storage/rows';

/** A comparison as kept: the run as the runner returned it, and each slot's named label (shown after a vote). */
export interface StoredRun {
  run: CompareRun;
  names: string[];
}

/** One pane's outcome of a vote, counted on its machine's scoreboard. */
export interface Score {
  backend: ChatBackend;
  label: string;
  model: string;
  outcome: 'win' | 'loss' | 'tie';
}

export interface ScoreCount {
  backend: ChatBackend;
  label: string;
  model: string;
  wins: number;
  losses: number;
  ties: number;
}

interface RunRow {
  id: string;
  created_at: string;
  prompt: string;
  blind: number;
  labels: string;
  names: string;
  run: string;
  vote: string | null;
}

interface Statement {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}
type Prepare = (sql: string) => Statement;

const GONE = 'This comparison was deleted.';
const SET_GONE = 'This saved set was deleted.';

/**
 * Comparisons, votes and saved sets, in the chat database (tables of the compare migration in
 * chat/storage/migrations.ts), through the chat store's handle: opened on first use, SQLite failures reported as
 * the chat store reports them.
 */
export class CompareStore {
  constructor(private readonly chat: ChatStore) {}

  /** Runs SQL on the chat database (`tx`: in one transaction), its failures said as the chat store says them. */
  private q<T>(fn: (p: Prepare) => T, tx = true): T {
    return this.chat.write(() => {
      const db = this.chat.db;
      const p: Prepare = (sql) => db.db.prepare<unknown[]>(sql);
      return tx ? db.tx(() => fn(p)) : fn(p);
    });
  }

  save(run: CompareRun, names: string[]): void {
    const { vote, ...rest } = run;
    this.q((p) =>
      p(
        `INSERT INTO compare_runs (id, created_at, prompt, blind, labels, names, run, vote)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        run.id,
        run.createdAt,
        run.prompt.slice(0, 200),
        run.blind ? 1 : 0,
        JSON.stringify(run.slots.map((s) => s.label)),
        JSON.stringify(names),
        JSON.stringify(rest),
        vote ? JSON.stringify(vote) : null,
      ),
    );
  }

  get(id: string): StoredRun {
    const row = this.q((p) => p(`SELECT * FROM compare_runs WHERE id = ?`).get(id), false) as RunRow | undefined;
    if (!row) throw new AppError('not_found', GONE);
    const run = compareRunSchema.parse({ ...JSON.parse(row.run), ...(row.vote ? { vote: JSON.parse(row.vote) } : {}) });
    return { run, names: JSON.parse(row.names) as string[] };
  }

  /** Newest first; labels as shown: "Model A"… while a blind comparison waits for its vote. */
  recent(limit: number): CompareSummary[] {
    const rows = this.q(
      (p) =>
        p(
          `SELECT id, created_at, prompt, blind, labels, names, vote FROM compare_runs
         ORDER BY created_at DESC, seq DESC LIMIT ?`,
        ).all(limit),
      false,
    ) as Omit<RunRow, 'run'>[];
    return rows.map((r) => {
      const voted = r.vote !== null;
      const hidden = !!r.blind && !voted;
      return {
        id: r.id,
        createdAt: r.created_at,
        prompt: r.prompt,
        labels: JSON.parse(hidden ? r.labels : r.names) as string[],
        blind: !!r.blind,
        voted,
      };
    });
  }

  delete(id: string): void {
    const { changes } = this.q((p) => p(`DELETE FROM compare_runs WHERE id = ?`).run(id));
    if (!changes) throw new AppError('not_found', GONE);
  }

  /** Records the vote and its scores in one transaction; false when the comparison already had one. */
  vote(id: string, vote: NonNullable<CompareRun['vote']>, machine: string, scores: Score[]): boolean {
    return this.q((p) => {
      const { changes } = p(`UPDATE compare_runs SET vote = ? WHERE id = ? AND vote IS NULL`).run(
        JSON.stringify(vote),
        id,
      );
      if (!changes) return false;
      const insert = p(
        `INSERT INTO compare_scores (run_id, machine, backend, label, model, outcome, at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const s of scores) insert.run(id, machine, s.backend, s.label, s.model, s.outcome, vote.at);
      return true;
    });
  }

  /** This machine's counts per engine and model, most wins first. */
  scores(machine: string): ScoreCount[] {
    const rows = this.q(
      (p) =>
        p(
          `SELECT backend, label, model, sum(outcome = 'win') AS wins, sum(outcome = 'loss') AS losses,
           sum(outcome = 'tie') AS ties
         FROM compare_scores WHERE machine = ? GROUP BY backend, label, model
         ORDER BY wins DESC, ties DESC, losses ASC, label`,
        ).all(machine),
      false,
    ) as ScoreCount[];
    return rows.map((r) => ({ ...r, wins: Number(r.wins), losses: Number(r.losses), ties: Number(r.ties) }));
  }

  sets(): SavedCompareSet[] {
    const rows = this.q(
      (p) => p(`SELECT id, name, body, updated_at FROM compare_sets ORDER BY updated_at DESC, seq DESC`).all(),
      false,
    ) as { id: string; name: string; body: string; updated_at: string }[];
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      set: compareSetSchema.parse(JSON.parse(r.body)),
      updatedAt: r.updated_at,
    }));
  }

  /** A new set, or over `id`; a name another set has is refused (names are unique, letter case aside). */
  saveSet(name: string, set: CompareSet, id?: string): SavedCompareSet {
    const updatedAt = new Date().toISOString();
    return this.q((p) => {
      const other = p(`SELECT id FROM compare_sets WHERE name = ? COLLATE NOCASE`).get(name) as
        { id: string } | undefined;
      if (other && other.id !== id)
        throw new AppError('conflict', `A set named “${name}” is already saved: choose another name.`);
      const body = JSON.stringify(set);
      if (id) {
        const { changes } = p(`UPDATE compare_sets SET name = ?, body = ?, updated_at = ? WHERE id = ?`).run(
          name,
          body,
          updatedAt,
          id,
        );
        if (!changes) throw new AppError('not_found', SET_GONE);
        return { id, name, set, updatedAt };
      }
      const fresh = newId('k');
      p(`INSERT INTO compare_sets (id, name, body, updated_at) VALUES (?, ?, ?, ?)`).run(fresh, name, body, updatedAt);
      return { id: fresh, name, set, updatedAt };
    });
  }

  deleteSet(id: string): void {
    const { changes } = this.q((p) => p(`DELETE FROM compare_sets WHERE id = ?`).run(id));
    if (!changes) throw new AppError('not_found', SET_GONE);
  }
}
