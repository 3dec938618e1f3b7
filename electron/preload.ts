import { contextBridge, ipcRenderer } from 'electron';
import { API_METHODS, type HomeAgentApi, type HostAgentEvent } from '../host/contract/api-contract.ts';
import { IPC_CALL, IPC_EVENT } from './ipc-channels.ts';

// One narrow object, generated from the contract's method list; main validates every payload again.
const api: HomeAgentApi = {
  call: (method, input) => {
    if (!API_METHODS.includes(method)) return Promise.reject(new Error(`unknown API method '${String(method)}'`));
    return ipcRenderer.invoke(IPC_CALL, { method, input });
  },
  onEvent: (listener) => {
    const handler = (_event: unknown, payload: HostAgentEvent): void => listener(payload);
    ipcRenderer.on(IPC_EVENT, handler);
    return () => void ipcRenderer.removeListener(IPC_EVENT, handler);
  },
};

contextBridge.exposeInMainWorld('homeAgent', api);
