import { createClient, type HubDeskClient } from '@shared/client';
import { webTransport } from './transport/web';
import { webSecretFromAddress, type WebSecret } from './transport/web-secret';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in the web mode. */
    hubdesk?: HubDeskClient;
  }
}

/** The web mode's secret for this tab and main's refusal of it (HubDesk restarted); undefined on the desktop. */
export const webSecret: WebSecret | undefined = window.hubdesk ? undefined : webSecretFromAddress();

/** The only way the renderer reaches main: the typed client, over IPC or the web transport. */
export const api: HubDeskClient = window.hubdesk ?? createClient(webTransport(location.origin, webSecret!));
export const isDesktop = !!window.hubdesk;
