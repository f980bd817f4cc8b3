import { createClient, type HubDeskClient } from '@shared/client';
import { WEB } from '@shared/transport';
import { webTransport } from './transport/web';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in the web mode. */
    hubdesk?: HubDeskClient;
  }
}

const SECRET_KEY = 'hubdesk.webSecret';

/** The web mode's secret arrives in the URL fragment once; it is kept for this tab and removed from the address bar. */
function webSecret(): string {
  const params = new URLSearchParams(location.hash.slice(1));
  const fromHash = params.get(WEB.tokenFragment);
  if (fromHash) {
    sessionStorage.setItem(SECRET_KEY, fromHash);
    history.replaceState(null, '', location.pathname + location.search);
  }
  return fromHash ?? sessionStorage.getItem(SECRET_KEY) ?? '';
}

/** The only way the renderer reaches main: the typed client, over IPC or the web transport. */
export const api: HubDeskClient = window.hubdesk ?? createClient(webTransport(location.origin, webSecret()));
export const isDesktop = !!window.hubdesk;
