import type { AppError } from '@shared/errors';
import { WEB } from '@shared/transport';

/**
 * The web mode's secret for this tab, and whether main refused it. shared/first-paint.ts takes it from the address
 * at start-up (into sessionStorage); a later address carrying one (HubDesk restarted on the same --port, its new
 * address pasted into this tab: only the fragment changes, so the page is not loaded again) replaces it here.
 */
export interface WebSecret {
  current(): string;
  /** Main's refusal of the secret in use (stale or missing), until a new one arrives. */
  refusal(): AppError | undefined;
  /** Main refused `sent`; ignored when a newer secret has arrived meanwhile. */
  refused(sent: string, error: AppError): void;
  /** Called when the refusal starts or ends (a new secret). */
  subscribe(listener: () => void): () => void;
}

const fromAddress = (hash: string) => new URLSearchParams(hash.slice(1)).get(WEB.tokenFragment);

export function webSecretFromAddress(): WebSecret {
  let secret = sessionStorage.getItem(WEB.secretStorageKey) ?? '';
  let refusal: AppError | undefined;
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((l) => l());

  // Capturing, so it runs before the route store's listener, which must not take `#token=…` for an address.
  window.addEventListener(
    'hashchange',
    (e) => {
      const next = fromAddress(location.hash);
      if (!next) return;
      e.stopImmediatePropagation();
      // As at start-up, the secret leaves the address bar; the page the user was on stays.
      history.replaceState(history.state, '', e.oldURL);
      sessionStorage.setItem(WEB.secretStorageKey, next);
      if (next === secret && !refusal) return;
      secret = next;
      refusal = undefined;
      changed();
    },
    { capture: true },
  );

  return {
    current: () => secret,
    refusal: () => refusal,
    refused(sent, error) {
      if (sent !== secret || refusal) return;
      refusal = error;
      changed();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
