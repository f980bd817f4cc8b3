/** The app's pages, as the address names them (`#/<page>/…`): the renderer's router and the first-paint script. */
export const pages = ['catalogue', 'models', 'chat', 'compare', 'tools', 'settings'] as const;
export type Page = (typeof pages)[number];
