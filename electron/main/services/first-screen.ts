import { readFileSync } from 'node:fs';

/**
 * Whether the catalogue landing prerendered into index.html (scripts/first-screen.ts) is this user's first screen:
 * the Hub-access choice made, and off (with it on, the landing is the Hub's list; before the choice, the first-run
 * screen). Read from the settings file each time index.html is served, without loading the services; a missing or
 * unreadable file hides the landing, so the app only ever shows it where it renders the same.
 */
export function landingIsFirstScreen(settingsFile: string): boolean {
  try {
    const { values } = JSON.parse(readFileSync(settingsFile, 'utf8')) as {
      values?: { hubAccess?: unknown; hubSearch?: unknown };
    };
    // `hubSearch: false` is how version 1 stored "off" (migrated by the settings service on load).
    return values?.hubAccess === 'offline' || (values?.hubAccess === undefined && values?.hubSearch === false);
  } catch {
    return false;
  }
}

/** index.html as served: marked when its prerendered landing is the first screen (see shared/first-paint.ts). */
export function markFirstScreen(html: string, landing: boolean): string {
  return landing ? html.replace('<html lang="en">', '<html lang="en" data-first-screen>') : html;
}
