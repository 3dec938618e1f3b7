import type { StateCreator } from 'zustand/vanilla';
import type { AppInfo } from '../../host/contract/api-contract.ts';
import type { ConnectionState } from '../api/api-client.ts';
import type { AppState } from './create-app-store.ts';

/** What the host told about itself, the state of the link to it, and the one notice line. */
export interface AppSlice {
  appInfo: AppInfo | null;
  connection: ConnectionState;
  /** A failure the person should read (a refused send, an unreachable host); null when all is well. */
  notice: string | null;
  setAppInfo(info: AppInfo): void;
  setConnection(connection: ConnectionState): void;
  showNotice(message: string | null): void;
}

export const createAppSlice: StateCreator<AppState, [], [], AppSlice> = (set) => ({
  appInfo: null,
  connection: { status: 'connecting' },
  notice: null,
  setAppInfo: (appInfo) => set({ appInfo }),
  setConnection: (connection) => set({ connection }),
  showNotice: (notice) => set({ notice }),
});
