import { contextBridge, ipcRenderer } from 'electron';
import { createPreloadApi } from './preload-api.ts';

// One narrow object; main validates every payload again.
contextBridge.exposeInMainWorld('homeAgent', createPreloadApi(ipcRenderer));
