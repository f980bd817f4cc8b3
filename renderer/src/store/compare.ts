import { create } from 'zustand';
import type {
  CompareAnswer,
  CompareEvent,
  ComparePaneInput,
  ComparePlan,
  CompareRun,
  CompareSetInput,
  CompareSlot,
} from '@shared/contract/compare';
import type { ChatParams } from '@shared/contract/chat-conversation';
import type { AppErrorShape } from '@shared/errors';
import { api } from '../api';
import { live, liveText } from './live-text';

/** What the Compare page edits before it sends: the panes and the shared settings (kept across visits). */
export interface CompareDraftSet {
  panes: ComparePaneInput[];
  system: string;
  params: ChatParams;
  repeat: number;
  blind: boolean;
}

/** A slot as the page shows it while the comparison runs, then as main kept it. */
export interface SlotView extends CompareSlot {
  state: 'waiting' | 'loading' | 'streaming' | 'done';
  /** The answer being streamed or shown last. */
  run: number;
}

export interface RunView {
  id?: string;
  prompt: string;
  repeat: number;
  blind: boolean;
  plan?: ComparePlan;
  slots: SlotView[];
  vote?: CompareRun['vote'];
}

const KEY = 'hubdesk.compare.set';
const blankPane = (): ComparePaneInput => ({ backend: 'ollama', model: '' });
const blankSet = (): CompareDraftSet => ({
  panes: [blankPane(), blankPane()],
  system: '',
  params: {},
  repeat: 1,
  blind: false,
});

function loadSet(): CompareDraftSet {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return blankSet();
    const s = JSON.parse(raw) as Partial<CompareDraftSet>;
    const panes = Array.isArray(s.panes) && s.panes.length >= 2 ? s.panes.slice(0, 4) : blankSet().panes;
    return { ...blankSet(), ...s, panes };
  } catch {
    return blankSet();
  }
}

/** The live text of one answer: the id the Markdown view subscribes to. */
export const liveAnswerId = (slot: number, run: number) => `compare-${slot}-${run}`;

/** A set as the contract takes it, from the page's draft. */
export const toSet = (s: CompareDraftSet): CompareSetInput => ({
  panes: s.panes,
  system: s.system,
  params: s.params,
  repeat: s.repeat,
  blind: s.blind,
});

const fromRun = (r: CompareRun): RunView => ({
  id: r.id,
  prompt: r.prompt,
  repeat: r.repeat,
  blind: r.blind,
  plan: r.plan,
  vote: r.vote,
  slots: r.slots.map((s) => ({ ...s, state: 'done', run: Math.max(0, s.answers.length - 1) })),
});

interface CompareState {
  set: CompareDraftSet;
  /** Why the panes were handed over by another page ("Q4_K_M against Q8_0 of …"). */
  note?: string;
  run?: RunView;
  running?: { cancel(): void };
  /** The comparison as a whole failed (nothing ran): the prompt box says why. */
  error?: AppErrorShape;
  edit(patch: Partial<CompareDraftSet>): void;
  setPane(i: number, patch: Partial<ComparePaneInput>): void;
  addPane(): void;
  removePane(i: number): void;
  /** Replaces the draft (a saved set, a set another page handed over). */
  load(set: CompareSetInput, note?: string): void;
  start(prompt: string): void;
  stop(): void;
  show(run: CompareRun): void;
}

/** Applies one event to the run as shown; text deltas go to the live buffers, outside React. */
function applyEvent(run: RunView, e: CompareEvent): RunView {
  if (e.type === 'start')
    return {
      ...run,
      id: e.id,
      plan: e.plan,
      slots: e.slots.map((s) => ({ label: s.label, answers: [], state: 'waiting', run: 0 })),
    };
  const slots = run.slots.slice();
  const s = slots[e.slot];
  if (!s) return run;
  if (e.type === 'delta') {
    liveText(liveAnswerId(e.slot, e.run)).add(e.content, e.thinking);
    return run;
  }
  if (e.type === 'state') slots[e.slot] = { ...s, state: e.state, run: e.run };
  else if (e.type === 'loaded') slots[e.slot] = { ...s, loadMs: e.loadMs };
  else {
    live.delete(liveAnswerId(e.slot, e.run));
    const answers = s.answers.slice();
    answers[e.run] = e.answer;
    slots[e.slot] = { ...s, answers, run: e.run };
  }
  return { ...run, slots };
}

/** On Stop: each answer still streaming keeps the text it showed, marked stopped. */
function stopAll(run: RunView): RunView {
  return {
    ...run,
    slots: run.slots.map((s, i) => {
      if (s.state === 'done' || s.answers[s.run]) return { ...s, state: 'done' };
      const t = live.get(liveAnswerId(i, s.run));
      live.delete(liveAnswerId(i, s.run));
      const answers = s.answers.slice();
      const answer: CompareAnswer = { content: t?.content ?? '', status: 'stopped' };
      if (t?.thinking) answer.thinking = t.thinking;
      if (s.state === 'streaming' || t?.content) answers[s.run] = answer;
      return { ...s, answers, state: 'done' };
    }),
  };
}

const persist = (set: CompareDraftSet) => {
  try {
    localStorage.setItem(KEY, JSON.stringify(set));
  } catch {
    /* a full or closed storage: the picks stay for this visit */
  }
};

export const useCompare = create<CompareState>((setState, get) => {
  const editSet = (next: CompareDraftSet) => {
    persist(next);
    setState({ set: next });
  };
  return {
    set: loadSet(),
    edit: (patch) => editSet({ ...get().set, ...patch }),
    setPane: (i, patch) => {
      const panes = get().set.panes.map((p, j) => (j === i ? { ...p, ...patch } : p));
      editSet({ ...get().set, panes });
    },
    addPane: () => {
      const { panes } = get().set;
      if (panes.length < 4) editSet({ ...get().set, panes: [...panes, { ...panes.at(-1)! }] });
    },
    removePane: (i) => {
      const { panes } = get().set;
      if (panes.length > 2) editSet({ ...get().set, panes: panes.filter((_, j) => j !== i) });
    },
    load: (s, note) => {
      editSet({
        panes: s.panes,
        system: s.system ?? '',
        params: s.params ?? {},
        repeat: s.repeat ?? 1,
        blind: s.blind ?? false,
      });
      setState({ note });
    },
    start: (prompt) => {
      if (get().running) return;
      for (const k of [...live.keys()]) if (k.startsWith('compare-')) live.delete(k);
      const { set } = get();
      setState({ run: { prompt, repeat: set.repeat, blind: set.blind, slots: [] }, error: undefined });
      const h = api.stream('compare.run', { ...toSet(set), prompt }, (events) => {
        let run = get().run!;
        const touched = new Set<string>();
        for (const e of events) {
          run = applyEvent(run, e);
          if (e.type === 'delta') touched.add(liveAnswerId(e.slot, e.run));
        }
        setState({ run });
        for (const id of touched) live.get(id)?.notify();
      });
      setState({ running: { cancel: h.cancel } });
      h.result.then(
        (r) => setState({ run: fromRun(r), running: undefined }),
        (err: AppErrorShape) => {
          const run = get().run;
          const error = err.code === 'aborted' ? undefined : err;
          // What streamed stays on screen; a comparison that never started leaves only its error.
          setState({ run: run?.slots.length ? stopAll(run) : undefined, running: undefined, error });
        },
      );
    },
    stop: () => get().running?.cancel(),
    show: (r) => setState({ run: fromRun(r) }),
  };
});
