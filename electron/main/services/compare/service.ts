import { parseGGUFQuantLabel } from '@huggingface/tasks';
import type { ConversationMeta } from '@shared/contract/chat-conversation';
import type {
  CompareEvent,
  ComparePane,
  ComparePlan,
  CompareRun,
  CompareSet,
  CompareSummary,
  SavedCompareSet,
  ScoreboardRow,
} from '@shared/contract/compare';
import type { HardwareView } from '@shared/contract/hardware';
import { AppError } from '@shared/errors';
import { newId } from '../chat/storage/rows';
import type { ChatStore } from '../chat/storage/store';
import type { Logger } from '../log';
import type { StreamContext } from '../stream-context';
import { blindPlan, blindSlot } from './blind';
import { continueAsChat } from './continue';
import type { Engines } from '../engines/registry';
import { paneLabels } from './labels';
import { describeMachine } from './machine';
import { compareMarkdown } from './markdown';
import type { CompareInput, CompareRunner } from './runner';
import { CompareStore, type Score, type StoredRun } from './store';

export interface CompareServiceOptions {
  /** The chat store: comparisons live in its database, and "Continue in chat" writes a conversation there. */
  chat: ChatStore;
  runner: Pick<CompareRunner, 'plan' | 'run'>;
  /** The machine the scoreboard is kept for. */
  hardware: { view(): Promise<HardwareView> };
  /** Names for the labels a vote reveals: a built-in model's, an endpoint's. */
  /** Every engine: each says its pane's label once the names are shown. */
  engines: Pick<Engines, 'kind'>;
  log: Logger;
}

const HIDDEN = 'Vote first: the names are hidden until then.';

/**
 * Compare's calls: runs (through the runner) saved when they end, blind runs shown without their panes until the
 * vote, the scoreboard per machine, "Continue in chat", the Markdown export and saved sets.
 */
export class CompareService {
  readonly store: CompareStore;

  constructor(private readonly opts: CompareServiceOptions) {
    this.store = new CompareStore(opts.chat);
  }

  plan(set: CompareSet): Promise<ComparePlan> {
    return this.opts.runner.plan(set);
  }

  /** Runs the comparison and saves it however it ended (complete, stopped, or with errors in some panes). */
  async run(input: CompareInput, ctx: StreamContext<CompareEvent>): Promise<CompareRun> {
    const run = await this.opts.runner.run(newId('r'), input, ctx);
    const names = run.blind ? await this.names(run) : run.slots.map((s) => s.label);
    this.store.save(run, names);
    return view({ run, names });
  }

  get(id: string): CompareRun {
    return view(this.store.get(id));
  }

  recent(limit: number): { runs: CompareSummary[] } {
    return { runs: this.store.recent(limit) };
  }

  delete(id: string): { deleted: true } {
    this.store.delete(id);
    return { deleted: true };
  }

  /** A blind comparison's one vote: counted on this machine's scoreboard, and the names revealed. */
  async vote(id: string, winner: number | null): Promise<CompareRun> {
    const { run, names } = this.store.get(id);
    if (!run.blind)
      throw new AppError(
        'invalid_input',
        'Only blind comparisons take a vote: this one showed the names from the start.',
      );
    const already = () => new AppError('conflict', 'This comparison already has your vote: a vote counts once.');
    if (run.vote) throw already();
    if (winner !== null && !run.slots[winner])
      throw new AppError('invalid_input', `This comparison has ${run.slots.length} panes: pick one of them or a tie.`);
    const vote = { winner, at: new Date().toISOString() };
    const looks = new Map(
      await Promise.all(
        run.slots.flatMap((s) => (s.pane ? [s.pane] : [])).map(async (p) => [p, await this.look(p)] as const),
      ),
    );
    const scores: Score[] = run.slots.flatMap((s, i) =>
      s.pane
        ? [
            {
              backend: s.pane.backend,
              // The engine and model alone: the same model at another setting counts as that model.
              label: paneLabels([s.pane], run, [looks.get(s.pane)!])[0],
              model: s.pane.model,
              outcome: winner === null ? 'tie' : winner === i ? 'win' : 'loss',
            } satisfies Score,
          ]
        : [],
    );
    if (!this.store.vote(id, vote, await this.machine(), scores)) throw already();
    this.opts.log.info('comparison voted', { id, tie: winner === null });
    return view({ run: { ...run, vote }, names });
  }

  async scoreboard(): Promise<{ machine: string; rows: ScoreboardRow[] }> {
    const machine = await this.machine();
    const rows = this.store.scores(machine).map((r) => {
      const quant = parseGGUFQuantLabel(r.model);
      return { ...r, ...(quant ? { quant } : {}) };
    });
    return { machine, rows };
  }

  /** One pane's answer as a new conversation; a blind comparison only once its names are shown. */
  continue(id: string, slot: number, run: number): ConversationMeta {
    const stored = this.store.get(id);
    if (hidden(stored.run)) throw new AppError('invalid_input', HIDDEN);
    const meta = continueAsChat(this.opts.chat, stored.run, slot, run);
    this.opts.log.info('comparison continued', { id, slot, run, conversation: meta.id });
    return meta;
  }

  export(id: string): { filename: string; mime: string; text: string } {
    return compareMarkdown(view(this.store.get(id)));
  }

  sets(): { sets: SavedCompareSet[] } {
    return { sets: this.store.sets() };
  }

  saveSet(input: { id?: string; name: string; set: CompareSet }): SavedCompareSet {
    return this.store.saveSet(input.name, input.set, input.id);
  }

  deleteSet(id: string): { deleted: true } {
    this.store.deleteSet(id);
    return { deleted: true };
  }

  /** The named labels a blind run reveals on its vote, in slot order. */
  private async names(run: CompareRun): Promise<string[]> {
    const panes = run.slots.map((s) => s.pane);
    if (panes.some((p) => !p)) return run.slots.map((s) => s.label);
    const shown = panes as ComparePane[];
    return paneLabels(shown, run, await Promise.all(shown.map((p) => this.look(p))));
  }

  private look(pane: ComparePane) {
    return this.opts.engines.kind(pane.backend).describe(pane);
  }

  private async machine(): Promise<string> {
    const hw = await this.opts.hardware.view().catch(() => undefined);
    return describeMachine(hw?.detected);
  }
}

const hidden = (run: CompareRun) => run.blind && !run.vote;

/**
 * The run as the user may see it: a blind one keeps "Model A"… and shows nothing that tells its panes apart (no
 * panes, load times, telling figures or the plan's reason) until the vote, then the names and everything.
 */
function view({ run, names }: StoredRun): CompareRun {
  if (hidden(run)) return { ...run, plan: blindPlan(run.plan), slots: run.slots.map(blindSlot) };
  return { ...run, slots: run.slots.map((s, i) => ({ ...s, label: names[i] ?? s.label })) };
}
