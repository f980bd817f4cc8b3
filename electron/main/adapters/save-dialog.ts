import { dialog, type BrowserWindow } from 'electron';
import type { SaveDialogPort } from '../services/snippets/service';

const filterNames: Record<string, string> = { py: 'Python', js: 'JavaScript', mjs: 'JavaScript', sh: 'Shell script' };

/** The native save dialog behind "Save to project…": main writes only to the path it returns. */
export function saveDialogPort(getWindow: () => BrowserWindow | undefined): SaveDialogPort {
  return async ({ defaultName, extension }) => {
    const options: Electron.SaveDialogOptions = {
      title: 'Save snippet to project',
      defaultPath: defaultName,
      buttonLabel: 'Save',
      // Linux (GTK) asks before overwriting only when told to; macOS and Windows always ask.
      properties: ['showOverwriteConfirmation', 'createDirectory'],
      filters: extension
        ? [
            { name: filterNames[extension] ?? extension.toUpperCase(), extensions: [extension] },
            { name: 'All files', extensions: ['*'] },
          ]
        : undefined,
    };
    const win = getWindow();
    const r = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
    return r.canceled || !r.filePath ? undefined : r.filePath;
  };
}
