import { AppError } from '@shared/errors';

interface Slot {
  busy: boolean;
  /** The conversation it last answered: a turn of the same one reuses its evaluated prefix. */
  key?: string;
  usedAt: number;
}

interface Waiter {
  wake(): void;
  onWait?: (ahead: number) => void;
}

/**
 * A loaded model's sequences and the requests waiting for one, in order: which sequence a use takes (the one that
 * last answered its conversation, else the one unused longest), and who is woken when one comes free.
 */
export class Sequences {
  private readonly slots: Slot[];
  private readonly waiters: Waiter[] = [];

  constructor(count: number) {
    this.slots = Array.from({ length: count }, () => ({ busy: false, usedAt: 0 }));
  }

  get busy(): number {
    return this.slots.filter((s) => s.busy).length;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  /** A free sequence for `key`, taken; none while others wait first (a newcomer does not overtake the queue). */
  take(key: string | undefined, queued = false): number | undefined {
    if (this.waiters.length && !queued) return undefined;
    let best: number | undefined;
    for (let i = 0; i < this.slots.length; i++) {
      const s = this.slots[i];
      if (s.busy) continue;
      if (key && s.key === key) {
        best = i;
        break;
      }
      if (best === undefined || s.usedAt < this.slots[best].usedAt) best = i;
    }
    if (best !== undefined) Object.assign(this.slots[best], { busy: true, key });
    return best;
  }

  /** The sequence is free again: the oldest waiter goes next, the others hear how many are ahead. */
  free(slot: number): void {
    Object.assign(this.slots[slot], { busy: false, usedAt: Date.now() });
    this.waiters.shift()?.wake();
    this.told();
  }

  /** Waits in order for a sequence to come free (or for `wakeAll`); a Stop leaves the queue at once. */
  wait(signal: AbortSignal | undefined, onWait?: (ahead: number) => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const i = this.waiters.indexOf(w);
        if (i >= 0) this.waiters.splice(i, 1);
        this.told();
        reject(new AppError('aborted', 'Stopped.'));
      };
      const w: Waiter = {
        onWait,
        wake: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(w);
      onWait?.(this.waiters.length);
    });
  }

  /** Wakes every waiter: the model went (unloaded, or its host ended), and each tries again. */
  wakeAll(): void {
    for (const w of this.waiters.splice(0)) w.wake();
  }

  private told(): void {
    this.waiters.forEach((w, i) => w.onWait?.(i + 1));
  }
}
