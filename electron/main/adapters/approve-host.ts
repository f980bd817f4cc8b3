import { dialog, type BrowserWindow } from 'electron';
import type { AskApproval } from '../services/net/key-bindings';

/** The main-process dialog that binds a key to a host: the page can ask for it, only the user can say yes. */
export function approveHostDialog(getWindow: () => BrowserWindow | undefined): AskApproval {
  return async ({ label, envVar, origin }) => {
    const options: Electron.MessageBoxOptions = {
      type: 'warning',
      title: 'Send a key to this host?',
      message: `Send your ${label} to ${origin}?`,
      detail:
        `HubDesk sends your ${label} (${envVar}) only to the hosts it was issued for. ` +
        `${origin} was set in the app. Approve only if you run or trust this server: it will be able to use your key.`,
      buttons: ['Keep the key here', `Send to ${origin}`],
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    };
    const win = getWindow();
    const r = win ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options);
    return r.response === 1;
  };
}
