import { app, BrowserWindow, clipboard, ipcMain, session, shell } from 'electron';
import { join } from 'node:path';
import { approveHostDialog } from './adapters/approve-host';
import { handleAppProtocol, registerAppScheme } from './adapters/app-protocol';
import { isTrustedSender, registerIpc } from './adapters/ipc';
import { safeStorageCipher } from './adapters/safe-storage';
import { saveDialogPort } from './adapters/save-dialog';
import { openDialogPort } from './adapters/open-dialog';
import { createMainWindow } from './adapters/window';
import { createHandlers } from './handlers';
import { Router } from './router';
import { createServices } from './services';
import { utilityHost } from './adapters/engine-process';
import { settingsFile } from './services/data-dir';
import { landingIsFirstScreen } from './services/first-screen';
import { APP_ORIGIN } from './services/static-files';

// The desktop shell: everything it does beyond wiring lives in plain-Node services.
// HUBDESK_DATA_DIR moves the data dir (tests, portable installs) and gives that instance its own lock.
if (process.env.HUBDESK_DATA_DIR) app.setPath('userData', process.env.HUBDESK_DATA_DIR);

// Before ready: the renderer is served from app://hubdesk/, a privileged scheme with its own origin (not file://).
registerAppScheme();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let win: BrowserWindow | undefined;
  app.on('second-instance', () => {
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });

  void app.whenReady().then(() => {
    const dataDir = app.getPath('userData');
    const services = createServices({
      dataDir,
      mode: 'desktop',
      version: app.getVersion(),
      cipher: safeStorageCipher,
      openExternal: (url) => shell.openExternal(url),
      saveDialog: saveDialogPort(() => win),
      openDialog: openDialogPort(() => win),
      approveHost: approveHostDialog(() => win),
      // The system's proxy settings, PAC included: asked per origin when neither Settings nor the environment set one.
      systemProxy: (url) => session.defaultSession.resolveProxy(url),
      local: {
        serve: true,
        spawnEngine: utilityHost(join(__dirname, 'engine-host.js')),
        // "Copy key": main writes the local server's key to the clipboard; the page never holds it.
        clipboard: (text) => clipboard.writeText(text),
      },
      // Beside this entry, as electron-vite builds it (the services are in a chunk of their own).
      documents: { extract: { entry: join(__dirname, 'extract-worker.js') } },
    });
    const router = new Router(createHandlers(services), services.log);
    handleAppProtocol(
      join(__dirname, '../renderer'),
      () => landingIsFirstScreen(settingsFile(dataDir)),
      () => services.settings.get().hubEndpoint,
    );
    registerIpc(ipcMain, router, (e) =>
      isTrustedSender(e, win && !win.isDestroyed() ? win.webContents.id : undefined, APP_ORIGIN),
    );
    win = createMainWindow(dataDir, join(__dirname, '../preload/index.js'));
    win.on('closed', () => (win = undefined));
    // MCP servers are child processes: stop them before the app goes (once; then quit for real).
    let disposed = false;
    app.on('will-quit', (e) => {
      if (disposed) return;
      e.preventDefault();
      void services.dispose().finally(() => ((disposed = true), app.quit()));
    });
  });

  app.on('window-all-closed', () => app.quit());
}
