import { readSettingsFile } from './settings';

/**
 * Whether the catalogue landing prerendered into index.html (scripts/first-screen.ts) is this user's first screen:
 * the Hub-access choice made, and off (with it on, the landing is the Hub's list; before the choice, the first-run
 * screen). Read from the settings file each time index.html is served, by the settings service's own reader (so
 * version 1's `hubSearch: false` is "off" here too); a missing file, or one the settings service would set aside,
 * hides the landing, so the app only ever shows it where it renders the same.
 */
export function landingIsFirstScreen(settingsFile: string): boolean {
  try {
    return readSettingsFile(settingsFile)?.hubAccess === 'offline';
  } catch {
    return false;
  }
}

/** index.html as served: marked when its prerendered landing is the first screen (see shared/first-paint.ts). */
export function markFirstScreen(html: string, landing: boolean): string {
  return landing ? html.replace('<html lang="en">', '<html lang="en" data-first-screen>') : html;
}
