import { dialog, type BrowserWindow } from 'electron';
import type { OpenDialogPort } from '../services/documents/service';

/** The native open dialog behind Attach on the desktop: files (several) or one folder, indexed where they are. */
export function openDialogPort(getWindow: () => BrowserWindow | undefined): OpenDialogPort {
  return async ({ folder }) => {
    const options: Electron.OpenDialogOptions = {
      title: folder ? 'Attach a folder' : 'Attach files',
      buttonLabel: 'Attach',
      properties: folder ? ['openDirectory'] : ['openFile', 'multiSelections'],
    };
    const win = getWindow();
    const r = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
    return r.canceled ? undefined : r.filePaths;
  };
}
