import { JSDOM } from 'jsdom';
import { ssrLoader } from './ssr-loader.mjs';
import type { HubDeskClient } from '../shared/client';
import type { CatalogueData } from '../shared/contract/catalogue';
import type { SettingsView } from '../shared/contract/settings';

/** A client that never answers: the first screen is what shows before main has said anything. */
const silentClient: HubDeskClient = {
  call: () => new Promise<never>(() => {}),
  stream: () => ({ result: new Promise<never>(() => {}), cancel() {} }),
};

/**
 * Renders renderer/src/first-screen.tsx in jsdom through Vite's SSR module loader (the app's own modules, aliases and
 * TSX as built) and returns the landing's HTML for index.html: shown until the app takes over, without test ids or
 * element ids (nothing may find it but the eye and its links), form controls disabled.
 */
export async function renderFirstScreenHtml(root: string, data: CatalogueData): Promise<string> {
  const dom = new JSDOM('<!doctype html><html><body></body></html>', {
    url: 'http://localhost/',
    pretendToBeVisual: true,
  });
  const win = dom.window;
  win.hubdesk = silentClient;
  win.matchMedia = () => ({ matches: false, addEventListener() {}, removeEventListener() {} }) as never;
  const names = [
    'window',
    'document',
    'navigator',
    'location',
    'history',
    'sessionStorage',
    'localStorage',
    'HTMLElement',
    'Element',
    'Node',
    'MutationObserver',
    'requestAnimationFrame',
    'cancelAnimationFrame',
    'getComputedStyle',
  ] as const;
  const saved = new Map<string, PropertyDescriptor | undefined>();
  for (const n of names) {
    saved.set(n, Object.getOwnPropertyDescriptor(globalThis, n));
    Object.defineProperty(globalThis, n, {
      value: n === 'window' ? win : (win as never)[n],
      configurable: true,
      writable: true,
    });
  }
  const vite = await ssrLoader(root);
  try {
    const mod = (await vite.load('/renderer/src/first-screen.tsx')) as typeof import('../renderer/src/first-screen');
    const { defaultSettings } = (await vite.load(
      '/electron/main/services/settings.ts',
    )) as typeof import('../electron/main/services/settings');
    const settings: SettingsView = {
      values: { ...defaultSettings, hubAccess: 'offline' },
      sources: {},
      secrets: [],
      bindings: [],
      canApproveHosts: false,
      secretStorage: { kind: 'none', keepWithoutKeyring: false },
    };
    const html = mod.renderFirstScreen(data, settings);
    // React's scheduler finishes the unmount in later ticks: let it run while the DOM globals are still here.
    await new Promise((r) => setTimeout(r, 20));
    return html.replace(/ (data-testid|id)="[^"]*"/g, '').replace(/<(input|button|select|textarea)\b/g, '<$1 disabled');
  } finally {
    await vite.close();
    for (const [n, d] of saved) {
      if (d) Object.defineProperty(globalThis, n, d);
      else delete (globalThis as Record<string, unknown>)[n];
    }
    dom.window.close();
  }
}
