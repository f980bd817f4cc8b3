import { BrowserWindow, screen, session, shell } from 'electron';
import { join } from 'node:path';
import { isAllowedExternal, loadExternalTargets } from '../services/external';
import { APP_ORIGIN } from '../services/static-files';
import { loadBounds, saveBounds } from '../services/window-state';

/** Creates the one app window with every security setting on, and remembers its size and position. */
export function createMainWindow(dataDir: string, preload: string): BrowserWindow {
  const stateFile = join(dataDir, 'window-state.json');
  const bounds = loadBounds(
    stateFile,
    screen.getAllDisplays().map((d) => d.workArea),
  );
  const win = new BrowserWindow({
    ...bounds,
    minWidth: 760,
    minHeight: 480,
    show: false,
    title: 'HubDesk',
    backgroundColor: '#111318',
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
      // A middle-click on a link would otherwise open a new window without passing the window-open handler.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  if (bounds.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());

  // No navigation away from the app and no new windows; allowed https links go to the system browser.
  // A redirect is a navigation too: both are refused alike.
  win.webContents.on('will-navigate', (e) => e.preventDefault());
  win.webContents.on('will-redirect', (e) => e.preventDefault());
  void loadExternalTargets();
  win.webContents.setWindowOpenHandler(({ url }) => {
    // Only web links: a custom app scheme (lmstudio:…) opens only from the Local apps buttons, through main.
    if (/^https:/i.test(url) && isAllowedExternal(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _perm, cb) => cb(false));
  session.defaultSession.setPermissionCheckHandler(() => false);

  const save = () => {
    if (win.isDestroyed()) return;
    saveBounds(stateFile, { ...win.getNormalBounds(), maximized: win.isMaximized() });
  };
  win.on('close', save);

  void win.loadURL(`${APP_ORIGIN}/index.html`);
  return win;
}
