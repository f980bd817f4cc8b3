import { createClient, type HubDeskClient } from '@shared/client';
import { WEB } from '@shared/transport';
import { webTransport } from './transport/web';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in the web mode. */
    hubdesk?: HubDeskClient;
  }
}

/** The web mode's secret for this tab, taken from the address by index.html's first script (shared/first-paint.ts). */
const webSecret = (): string => sessionStorage.getItem(WEB.secretStorageKey) ?? '';

/** The only way the renderer reaches main: the typed client, over IPC or the web transport. */
export const api: HubDeskClient = window.hubdesk ?? createClient(webTransport(location.origin, webSecret()));
export const isDesktop = !!window.hubdesk;
