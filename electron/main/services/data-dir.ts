import { homedir } from 'node:os';
import { join } from 'node:path';
import { envVar } from '@shared/environment';

/** Where Electron's `userData` lives for HubDesk on this platform: the web mode and the CLI share it. */
export function defaultDataDir(
  env: Record<string, string | undefined> = process.env,
  platform = process.platform,
): string {
  const set = env[envVar('HUBDESK_DATA_DIR').name];
  if (set) return set;
  const home = homedir();
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'HubDesk');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'HubDesk');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'HubDesk');
}

/** The settings file in a data dir (read by the settings service, and by the first-screen check before it loads). */
export const settingsFile = (dataDir: string) => join(dataDir, 'settings.json');
