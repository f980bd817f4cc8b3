import { useCallback, useState } from 'react';
import type { HardwareView } from '@shared/contract/hardware';
import type { AppErrorShape } from '@shared/errors';
import { api } from '../api';
import { useAction, useQuery } from './query';

/** Hands a link to the system browser (or a local app's deeplink to that app); main decides what may leave. */
export function useOpenExternal(): (url: string) => void {
  // A refused link simply does not open: main logs why, and the page has nothing to add.
  const { run } = useAction((url: string) => api.call('app.openExternal', { url }));
  return useCallback((url: string) => void run(url), [run]);
}

/**
 * This machine's RAM and GPUs as main detects them, asked again when `override` (the figures from Settings) changes
 * and by `detectAgain` (main probes anew). The figures shown stay while main is asked again, and beside a failure;
 * an answer that arrives after a newer request is dropped.
 */
export function useHardware(override: unknown): {
  hardware?: HardwareView;
  error?: AppErrorShape;
  detectAgain(): void;
} {
  // Each "Detect again" is a new request; new figures from Settings are asked without a new probe.
  const [again, setAgain] = useState<{ for: unknown; times: number }>();
  const refresh = again !== undefined && Object.is(again.for, override);
  const q = useQuery(() => api.call('system.hardware', { refresh }), [override, again]);
  const [shown, setShown] = useState<{ hardware?: HardwareView; error?: AppErrorShape }>({});
  const next =
    q.state === 'ok'
      ? { hardware: q.data }
      : q.state === 'error'
        ? { hardware: shown.hardware, error: q.error }
        : shown;
  if (next.hardware !== shown.hardware || next.error !== shown.error) setShown(next);
  const detectAgain = useCallback(() => setAgain((a) => ({ for: override, times: (a?.times ?? 0) + 1 })), [override]);
  return { ...next, detectAgain };
}
