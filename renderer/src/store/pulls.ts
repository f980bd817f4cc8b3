import { create } from 'zustand';
import type { CreateInput, ProgressEvent } from '@shared/contract/ollama';
import type { AppErrorShape } from '@shared/errors';
import { api } from '../api';

/**
 * Pulls, pushes and creates as jobs that outlive the page: they keep running (and showing in the status bar) while
 * the user visits other pages. At most MAX_RUNNING run at once; the rest wait in order.
 */

export type JobKind = 'pull' | 'push' | 'create';
export type JobState = 'queued' | 'running' | 'success' | 'error' | 'cancelled';

export interface LayerProgress {
  digest: string;
  status: string;
  total: number;
  completed: number;
  /** First and latest sample, for the speed. */
  firstAt: number;
  firstCompleted: number;
  lastAt: number;
}

export interface Job {
  id: string;
  kind: JobKind;
  model: string;
  state: JobState;
  /** Ollama's current status line (pulling manifest, verifying sha256 digest, writing manifest, success). */
  status: string;
  layers: LayerProgress[];
  error?: AppErrorShape;
  queuedAt: number;
  startedAt?: number;
  endedAt?: number;
  create?: CreateInput;
}

const MAX_RUNNING = 2;

interface JobsState {
  jobs: Job[];
  /** Bumped whenever a job succeeds: pages that list models reload. */
  generation: number;
  pull(model: string): string;
  push(model: string): string;
  create(input: CreateInput): string;
  cancel(id: string): void;
  dismiss(id: string): void;
  clearFinished(): void;
}

const cancels = new Map<string, () => void>();
let seq = 0;

export const isActive = (j: Job) => j.state === 'queued' || j.state === 'running';

/** Folds a batch of progress events into a job (one state update per batch). */
function applyEvents(job: Job, events: ProgressEvent[], now: number): Job {
  let layers = job.layers;
  let status = job.status;
  for (const e of events) {
    status = e.status;
    if (!e.digest || !e.total) continue;
    const i = layers.findIndex((l) => l.digest === e.digest);
    const completed = e.completed ?? 0;
    if (layers === job.layers) layers = [...layers];
    if (i < 0) {
      layers.push({
        digest: e.digest,
        status: e.status,
        total: e.total,
        completed,
        firstAt: now,
        firstCompleted: completed,
        lastAt: now,
      });
    } else {
      layers[i] = { ...layers[i], status: e.status, total: e.total, completed, lastAt: now };
    }
  }
  return { ...job, layers, status };
}

/** Bytes per second of a layer since its first sample (undefined until there is enough to say). */
export function layerSpeed(l: LayerProgress): number | undefined {
  const secs = (l.lastAt - l.firstAt) / 1000;
  const bytes = l.completed - l.firstCompleted;
  if (secs < 0.25 || bytes <= 0 || l.completed >= l.total) return undefined;
  return bytes / secs;
}

export function jobTotals(job: Job): { total: number; completed: number; speed?: number } {
  let total = 0;
  let completed = 0;
  let speed: number | undefined;
  for (const l of job.layers) {
    total += l.total;
    completed += Math.min(l.completed, l.total);
    const s = layerSpeed(l);
    if (s !== undefined) speed = (speed ?? 0) + s;
  }
  return { total, completed, speed };
}

export const usePulls = create<JobsState>((set, get) => {
  const update = (id: string, fn: (j: Job) => Job) =>
    set((s) => ({ jobs: s.jobs.map((j) => (j.id === id ? fn(j) : j)) }));

  const run = (job: Job) => {
    update(job.id, (j) => ({ ...j, state: 'running', startedAt: Date.now() }));
    const onEvents = (events: ProgressEvent[]) => update(job.id, (j) => applyEvents(j, events, Date.now()));
    const handle =
      job.kind === 'create'
        ? api.stream('ollama.create', job.create!, onEvents)
        : api.stream(job.kind === 'pull' ? 'ollama.pull' : 'ollama.push', { model: job.model }, onEvents);
    cancels.set(job.id, handle.cancel);
    handle.result
      .then(
        () => {
          update(job.id, (j) => ({ ...j, state: 'success', status: 'success', endedAt: Date.now() }));
          set((s) => ({ generation: s.generation + 1 }));
        },
        (e: AppErrorShape) => {
          const cancelled = e?.code === 'aborted';
          update(job.id, (j) => ({
            ...j,
            state: cancelled ? 'cancelled' : 'error',
            error: cancelled
              ? undefined
              : { code: e?.code ?? 'internal', message: e?.message ?? String(e), status: e?.status },
            endedAt: Date.now(),
          }));
        },
      )
      .finally(() => {
        cancels.delete(job.id);
        next();
      });
  };

  const next = () => {
    const { jobs } = get();
    const running = jobs.filter((j) => j.state === 'running').length;
    const waiting = jobs.filter((j) => j.state === 'queued');
    for (const j of waiting.slice(0, Math.max(0, MAX_RUNNING - running))) run(j);
  };

  const add = (kind: JobKind, model: string, extra: Partial<Job> = {}) => {
    const id = `job-${++seq}`;
    const job: Job = {
      id,
      kind,
      model,
      state: 'queued',
      status: 'waiting',
      layers: [],
      queuedAt: Date.now(),
      ...extra,
    };
    set((s) => ({ jobs: [...s.jobs, job] }));
    next();
    return id;
  };

  return {
    jobs: [],
    generation: 0,
    pull: (model) => add('pull', model.trim()),
    push: (model) => add('push', model.trim()),
    create: (input) => add('create', input.model, { create: input }),
    cancel: (id) => {
      const job = get().jobs.find((j) => j.id === id);
      if (!job) return;
      if (job.state === 'queued') update(id, (j) => ({ ...j, state: 'cancelled', endedAt: Date.now() }));
      else cancels.get(id)?.();
    },
    dismiss: (id) => set((s) => ({ jobs: s.jobs.filter((j) => j.id !== id || isActive(j)) })),
    clearFinished: () => set((s) => ({ jobs: s.jobs.filter(isActive) })),
  };
});
