import type { CompareEvent, ComparePlan, CompareRun, CompareSet } from '@shared/contract/compare';
import { AppError } from '@shared/errors';
import type { Engines } from '../engines/registry';
import type { Logger } from '../log';
import type { StreamContext } from '../stream-context';

/** What the runner needs (skeleton: the compare-runner work fills this in). */
export interface CompareRunnerDeps {
  engines: Engines;
  log: Logger;
}

export type CompareInput = CompareSet & { prompt: string };

/**
 * Runs a comparison: decides together or one after another (plan), loads each model before its first answer so
 * the load time is apart from the time to first token, streams every pane, and returns the whole run with every
 * slot's pane named (the service hides them from a blind comparison's output until the vote).
 */
export class CompareRunner {
  constructor(private readonly deps: CompareRunnerDeps) {}

  async plan(set: CompareSet): Promise<ComparePlan> {
    void set;
    throw new AppError('unavailable', 'Compare is not built yet.');
  }

  async run(id: string, input: CompareInput, ctx: StreamContext<CompareEvent>): Promise<CompareRun> {
    void id;
    void input;
    void ctx;
    void this.deps;
    throw new AppError('unavailable', 'Compare is not built yet.');
  }
}
