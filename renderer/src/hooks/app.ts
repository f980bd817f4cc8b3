import { api } from '../api';

/** Hands a link to the system browser (or a local app's deeplink to that app); main decides what may leave. */
export function openExternal(url: string): void {
  // A refused link simply does not open: main logs why, and the page has nothing to add.
  void api.call('app.openExternal', { url }).catch(() => {});
}

/** This machine's RAM and GPUs as main detects them (again with `refresh`), and the override from Settings. */
export const detectHardware = (refresh = false) => api.call('system.hardware', { refresh });
