import { API_METHODS, type HomeAgentApi, type HostAgentEvent } from '../host/contract/api-contract.ts';
import { IPC_CALL, IPC_EVENT } from './ipc-channels.ts';

/** The parts of `ipcRenderer` the preload uses. */
export interface PreloadIpc {
  invoke(channel: string, payload: unknown): Promise<unknown>;
  on(channel: string, listener: (event: unknown, payload: HostAgentEvent) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, payload: HostAgentEvent) => void): unknown;
}

/** The one object the preload exposes, generated from the contract's method list. */
export function createPreloadApi(ipc: PreloadIpc): HomeAgentApi {
  return {
    call: (method, input) => {
      if (!API_METHODS.includes(method)) return Promise.reject(new Error(`unknown API method '${String(method)}'`));
      return ipc.invoke(IPC_CALL, { method, input }) as never;
    },
    onEvent: (listener) => {
      const handler = (_event: unknown, payload: HostAgentEvent): void => listener(payload);
      ipc.on(IPC_EVENT, handler);
      return () => void ipc.removeListener(IPC_EVENT, handler);
    },
  };
}
