import { API_METHODS, type HomeAgentBridge } from '../host/contract/api-contract.ts';
import { IPC_CALL, IPC_EVENT, IPC_NOTICE } from './ipc-channels.ts';

/** The parts of `ipcRenderer` the preload uses. */
export interface PreloadIpc {
  invoke(channel: string, payload: unknown): Promise<unknown>;
  // Payloads are checked against the contract by the renderer's client; here they pass through.
  on<Payload>(channel: string, listener: (event: unknown, payload: Payload) => void): unknown;
  removeListener<Payload>(channel: string, listener: (event: unknown, payload: Payload) => void): unknown;
}

/** The one object the preload exposes, generated from the contract's method list. */
export function createPreloadApi(ipc: PreloadIpc): HomeAgentBridge {
  return {
    call: (method, input) => {
      if (!API_METHODS.includes(method)) return Promise.reject(new Error(`unknown API method '${String(method)}'`));
      return ipc.invoke(IPC_CALL, { method, input });
    },
    onEvent: (listener) => {
      const handler = (_event: unknown, payload: unknown): void => listener(payload);
      ipc.on(IPC_EVENT, handler);
      return () => void ipc.removeListener(IPC_EVENT, handler);
    },
    onNotice: (listener) => {
      const handler = (_event: unknown, payload: unknown): void => listener(payload);
      ipc.on(IPC_NOTICE, handler);
      return () => void ipc.removeListener(IPC_NOTICE, handler);
    },
  };
}
