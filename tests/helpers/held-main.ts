import { act } from '@testing-library/react';
import { vi } from 'vitest';
import type { HubDeskClient } from '@shared/client';
import type { AppErrorShape } from '@shared/errors';

/** A call the renderer made that main has not answered yet: the test answers it, when it says so. */
export interface HeldCall {
  name: string;
  input: Record<string, unknown>;
  answer(value: unknown): Promise<void>;
  fail(error: AppErrorShape): Promise<void>;
}

/** A stream the renderer opened: the test sends its events and ends it; `cancelled` says whether it was cancelled. */
export interface HeldStream extends Omit<HeldCall, 'answer'> {
  events(...events: unknown[]): Promise<void>;
  end(result: unknown): Promise<void>;
  cancelled: boolean;
}

/**
 * Main as component tests see it (`vi.mock` the renderer's `api` with `heldMain.api`): every call waits until the
 * test answers it, so the order answers arrive in is the test's to choose. Names in `answers` are answered at once.
 */
export function holdMain() {
  const calls: HeldCall[] = [];
  const streams: HeldStream[] = [];
  const answers = new Map<string, (input: Record<string, unknown>) => unknown>();
  // The answer and what React renders from it are applied before the test looks.
  const settle = (deliver: () => void) =>
    act(async () => {
      deliver();
      await new Promise<void>((ok) => setTimeout(ok, 0));
    });

  const api = {
    call: (name: string, input: Record<string, unknown>) => {
      const now = answers.get(name);
      if (now) return Promise.resolve().then(() => now(input));
      return new Promise((resolve, reject) => {
        const remove = () => calls.splice(calls.indexOf(held), 1);
        const held: HeldCall = {
          name,
          input,
          answer: (v) => settle(() => (remove(), resolve(v))),
          fail: (e) => settle(() => (remove(), reject(e))),
        };
        calls.push(held);
      });
    },
    stream: (name: string, input: Record<string, unknown>, onEvents: (events: unknown[]) => void) => {
      let resolve!: (v: unknown) => void;
      let reject!: (e: unknown) => void;
      const result = new Promise((ok, ko) => ((resolve = ok), (reject = ko)));
      const held: HeldStream = {
        name,
        input,
        cancelled: false,
        events: (...e) => settle(() => onEvents(e)),
        end: (v) => settle(() => resolve(v)),
        fail: (e) => settle(() => reject(e)),
      };
      streams.push(held);
      return {
        result,
        cancel: () => {
          held.cancelled = true;
          reject({ code: 'aborted', message: 'Cancelled.' });
        },
      };
    },
  } as unknown as HubDeskClient;

  /** The oldest unanswered call to `name`, once the renderer has made it. */
  const next = (name: string) =>
    vi.waitFor(() => {
      const c = calls.find((x) => x.name === name);
      if (!c) throw new Error(`no ${name} call yet (waiting: ${calls.map((x) => x.name).join(', ') || 'none'})`);
      return c;
    });

  return {
    api,
    /** The calls waiting for an answer, oldest first. */
    waiting: (name?: string) => calls.filter((c) => !name || c.name === name),
    next,
    /** The newest stream to `name`, once opened. */
    stream: (name: string) =>
      vi.waitFor(() => {
        const s = streams.findLast((x) => x.name === name);
        if (!s) throw new Error(`no ${name} stream yet`);
        return s;
      }),
    /** Every stream opened to `name`, oldest first. */
    opened: (name: string) => streams.filter((x) => x.name === name),
    /** Answers every later call to `name` at once with `fn(input)`. */
    answer: (name: string, fn: (input: Record<string, unknown>) => unknown) => void answers.set(name, fn),
    reset: () => {
      calls.length = 0;
      streams.length = 0;
      answers.clear();
    },
  };
}

export type HeldMain = ReturnType<typeof holdMain>;

/** The one held main of a test file: `vi.mock(api, () => import('../helpers/held-main').then((m) => m.mockedApi()))`. */
export const heldMain = holdMain();
export const mockedApi = (isDesktop = true) => ({ api: heldMain.api, isDesktop, webSecret: undefined });
