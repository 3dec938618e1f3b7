import type { StateCreator } from 'zustand/vanilla';
import type { AppInfo } from '../../host/contract/api-contract.ts';
import type { ConnectionState } from '../api/api-client.ts';
import type { AppState } from './create-app-store.ts';

/** The tabs of the side area, in the order they are shown. */
export const SIDE_TABS = ['channels', 'devices', 'plugins', 'settings'] as const;
export type SideTab = (typeof SIDE_TABS)[number];

/** What the host told about itself, the state of the link to it, the one notice line, and the side area's tab. */
export interface AppSlice {
  appInfo: AppInfo | null;
  connection: ConnectionState;
  /** A failure the person should read (a refused send, an unreachable host); null when all is well. */
  notice: string | null;
  sideTab: SideTab;
  setAppInfo(info: AppInfo): void;
  setConnection(connection: ConnectionState): void;
  showNotice(message: string | null): void;
  /** Shows a tab of the side area and re-reads what it shows (another front end may have changed it). */
  showSideTab(tab: SideTab): void;
}

export const createAppSlice: StateCreator<AppState, [], [], AppSlice> = (set, get) => ({
  appInfo: null,
  connection: { status: 'connecting' },
  notice: null,
  sideTab: 'channels',
  setAppInfo: (appInfo) => set({ appInfo }),
  setConnection: (connection) => set({ connection }),
  showNotice: (notice) => set({ notice }),
  showSideTab(sideTab) {
    set({ sideTab });
    if (sideTab === 'devices') void get().refreshDevices();
    else if (sideTab === 'plugins') void get().refreshPlugins();
    else if (sideTab === 'settings') void get().refreshSettings();
  },
});
