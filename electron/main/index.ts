import { app, BrowserWindow, ipcMain, shell } from 'electron';
import { join } from 'node:path';
import { registerIpc } from './adapters/ipc';
import { safeStorageCipher } from './adapters/safe-storage';
import { saveDialogPort } from './adapters/save-dialog';
import { createMainWindow } from './adapters/window';
import { createHandlers } from './handlers';
import { Router } from './router';
import { createServices } from './services';

// The desktop shell: everything it does beyond wiring lives in plain-Node services.
// HUBDESK_DATA_DIR moves the data dir (tests, portable installs) and gives that instance its own lock.
if (process.env.HUBDESK_DATA_DIR) app.setPath('userData', process.env.HUBDESK_DATA_DIR);

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
    });
    const router = new Router(createHandlers(services), services.log);
    registerIpc(ipcMain, router, (e) => !!win && !win.isDestroyed() && e.sender.id === win.webContents.id);
    win = createMainWindow(dataDir, join(__dirname, '../renderer'), join(__dirname, '../preload/index.js'));
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
