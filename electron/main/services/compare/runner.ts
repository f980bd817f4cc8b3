import type { ChatParams } from '@shared/contract/chat-conversation';
import type {
  CompareAnswer,
  CompareEvent,
  ComparePane,
  ComparePlan,
  CompareRun,
  CompareSet,
  CompareSlot,
} from '@shared/contract/compare';
import { AppError, toAppError } from '@shared/errors';
import type { Turn } from '../chat/replies/turns';
import type { Engines } from '../engines/registry';
import type { ChatEngine } from '../engines/types';
import type { Logger } from '../log';
import type { StreamContext } from '../stream-context';
import { medianFigures, streamAnswer, unstarted } from './answer';
import { blindContext } from './blind';
import { blindLabels, hideNames, paneLabels, paneNames, paneParams, shuffledOrder } from './labels';
import { loadModel } from './load';
import { gatherMemory, type MemorySources } from './memory';
import { schedule } from './scheduler';

/**
 * What the runner needs; `services/index.ts` wires it:
 * - `engines`: every engine (the chat's own), for answers and for what each knows (labels, loads, memory);
 * - `hardware`: the HardwareService (free VRAM, and the Settings override), else `os.freemem()` alone;
 * - `random`: the blind shuffle's source (tests pass `seededRandom(n)` from labels.ts), `Math.random` by default.
 */
export interface CompareRunnerDeps {
  engines: Engines;
  log: Logger;
  hardware?: MemorySources['hardware'];
  random?: () => number;
}

export type CompareInput = CompareSet & { prompt: string };

/** One slot as it runs: its pane, where it runs, its engine (or why it has none), its answers so far. */
interface Slot {
  index: number;
  pane: ComparePane;
  params: ChatParams;
  where: ComparePlan['panes'][number]['where'];
  wasLoaded: boolean;
  engine?: ChatEngine;
  failed?: AppError;
  loadMs?: number;
  answers: CompareAnswer[];
  /** A blind pane's names, read as its label in its errors. */
  hide?: { names: string[]; label: string };
}

/**
 * Runs a comparison: decides together or one after another (plan), loads each model before its first answer so
 * the load time is apart from the time to first token, streams every pane, and returns the whole run with every
 * slot's pane named (the service hides them from a blind comparison's output until the vote).
 */
export class CompareRunner {
  constructor(private readonly deps: CompareRunnerDeps) {}

  async plan(set: CompareSet): Promise<ComparePlan> {
    const panes = set.panes.map((pane) => ({ pane, params: paneParams(set, pane) }));
    return schedule(await gatherMemory(panes, this.deps));
  }

  async run(id: string, input: CompareInput, shown: StreamContext<CompareEvent>): Promise<CompareRun> {
    // A blind comparison's events carry nothing that tells its panes apart (blind.ts); its result keeps everything.
    const ctx = input.blind ? blindContext(shown) : shown;
    const createdAt = new Date().toISOString();
    const plan = await this.plan(input);
    const n = input.panes.length;
    const order = input.blind
      ? shuffledOrder(n, this.deps.random ?? Math.random)
      : Array.from({ length: n }, (_, i) => i);
    const slots: Slot[] = order.map((p, index) => ({
      index,
      pane: input.panes[p],
      params: paneParams(input, input.panes[p]),
      where: plan.panes[p].where,
      wasLoaded: plan.panes[p].loaded,
      answers: [],
    }));
    const looks = await Promise.all(slots.map((s) => this.deps.engines.kind(s.pane.backend).describe(s.pane)));
    const labels = input.blind
      ? blindLabels(n)
      : paneLabels(
          slots.map((s) => s.pane),
          input,
          looks,
        );
    if (input.blind)
      for (const s of slots) s.hide = { names: paneNames(s.pane, looks[s.index]), label: labels[s.index] };
    ctx.emit({ type: 'start', id, plan, slots: labels.map((label) => ({ label })) });
    for (const s of slots) {
      ctx.emit({ type: 'state', slot: s.index, run: 0, state: 'waiting' });
      try {
        s.engine = this.deps.engines.for(s.pane, 'pane');
      } catch (e) {
        s.failed = toAppError(e);
      }
    }
    const turns: Turn[] = [
      ...(input.system.trim() ? [{ role: 'system' as const, content: input.system }] : []),
      { role: 'user', content: input.prompt },
    ];
    const answer = (s: Slot, run: number) => this.answer(s, run, turns, ctx);
    const here = slots.filter((s) => s.where !== 'remote');
    const remote = slots.filter((s) => s.where === 'remote');
    if (plan.mode === 'parallel') await this.lockstep(slots, input.repeat, answer, ctx);
    else
      await Promise.all([
        (async () => {
          for (const s of here) await this.lockstep([s], input.repeat, answer, ctx);
        })(),
        this.lockstep(remote, input.repeat, answer, ctx),
      ]);
    this.deps.log.info('comparison ran', { id, mode: plan.mode, panes: n, repeat: input.repeat });
    return {
      id,
      createdAt,
      prompt: input.prompt,
      system: input.system,
      params: input.params,
      repeat: input.repeat,
      blind: input.blind,
      plan,
      slots: slots.map((s, i) => this.slotResult(s, labels[i])),
    };
  }

  /** Loads every slot's model (together), then starts run k of every slot together, then run k+1. */
  private async lockstep(
    slots: Slot[],
    repeat: number,
    answer: (s: Slot, run: number) => Promise<void>,
    ctx: StreamContext<CompareEvent>,
  ): Promise<void> {
    if (!slots.length) return;
    await Promise.all(slots.map((s) => this.load(s, ctx)));
    for (let run = 0; run < repeat; run++) await Promise.all(slots.map((s) => answer(s, run)));
    for (const s of slots) ctx.emit({ type: 'state', slot: s.index, run: repeat - 1, state: 'done' });
  }

  private async load(s: Slot, ctx: StreamContext<CompareEvent>): Promise<void> {
    if (s.failed || s.where === 'remote' || ctx.signal.aborted) return;
    ctx.emit({ type: 'state', slot: s.index, run: 0, state: 'loading' });
    try {
      const ms = await loadModel(this.deps.engines.kind(s.pane.backend), s.pane, s.params, ctx.signal);
      if (!s.wasLoaded) s.loadMs = ms;
      ctx.emit({ type: 'loaded', slot: s.index, loadMs: ms });
    } catch (e) {
      if (ctx.signal.aborted) return;
      s.failed = toAppError(e);
      ctx.emit({ type: 'loaded', slot: s.index, loadMs: 0 });
      this.deps.log.info('comparison load failed', { backend: s.pane.backend, code: s.failed.code });
    }
  }

  private async answer(s: Slot, run: number, turns: Turn[], ctx: StreamContext<CompareEvent>): Promise<void> {
    let a: CompareAnswer;
    if (s.failed) a = unstarted(s.failed);
    else if (ctx.signal.aborted || !s.engine) a = unstarted('stopped');
    else {
      ctx.emit({ type: 'state', slot: s.index, run, state: 'streaming' });
      a = await streamAnswer(
        {
          slot: s.index,
          run,
          engine: s.engine,
          kind: this.deps.engines.kind(s.pane.backend),
          model: s.pane.model,
          turns,
          params: s.params,
        },
        ctx,
      );
    }
    if (s.hide && a.error) a = { ...a, error: hideNames(a.error, s.hide.names, s.hide.label) };
    s.answers[run] = a;
    ctx.emit({ type: 'run-end', slot: s.index, run, answer: a });
  }

  private slotResult(s: Slot, label: string): CompareSlot {
    const median = medianFigures(s.answers);
    return {
      label,
      pane: s.pane,
      ...(s.loadMs !== undefined ? { loadMs: s.loadMs } : {}),
      answers: s.answers,
      ...(median ? { median } : {}),
    };
  }
}
