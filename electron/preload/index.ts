import { contextBridge, ipcRenderer } from 'electron';
import { createClient } from '@shared/client';
import { ipcTransport } from './ipc-transport';

// The renderer gets the typed client and nothing else: no ipcRenderer, no channel names.
contextBridge.exposeInMainWorld('hubdesk', createClient(ipcTransport(ipcRenderer)));
