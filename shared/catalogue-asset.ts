/** The embedded catalogue as the renderer's static asset (out/renderer/), built by electron.vite.config.ts. */
export const CATALOGUE_ASSET = 'catalogue.json';
