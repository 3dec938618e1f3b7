import type { StateCreator } from 'zustand/vanilla';
import type { AppInfo } from '../../host/contract/api-contract.ts';
import type { ApiClient, ConnectionState } from '../api/api-client.ts';
import { messageOf } from './message-of.ts';
import type { AppState } from './create-app-store.ts';

/** The tabs of the side area, in the order they are shown. */
export const SIDE_TABS = ['channels', 'devices', 'plugins', 'settings'] as const;
export type SideTab = (typeof SIDE_TABS)[number];

/** The areas shown as drawers over the chat on narrow screens. */
export type Drawer = 'conversations' | 'side';

/** The latest sentence for the screen reader's polite or assertive region (`id` makes a repeat heard again). */
export interface SpokenLine {
  id: number;
  text: string;
}

/** What the host told about itself, the state of the link to it, the one notice line, and the side area's tab. */
export interface AppSlice {
  appInfo: AppInfo | null;
  connection: ConnectionState;
  /** A failure the person should read (a refused send, an unreachable host); null when all is well. */
  notice: string | null;
  sideTab: SideTab;
  /** The drawer open on a narrow screen (none on a wide one, where both areas are always shown). */
  drawer: Drawer | null;
  /** What the live regions say last: polite news and urgent news. */
  spoken: { polite: SpokenLine | null; urgent: SpokenLine | null };
  setAppInfo(info: AppInfo): void;
  /** Re-reads what the host says about itself (the model changes with the settings). */
  refreshAppInfo(): Promise<void>;
  setDrawer(drawer: Drawer | null): void;
  /** Has the live regions say a sentence. */
  announce(text: string, urgent: boolean): void;
  setConnection(connection: ConnectionState): void;
  showNotice(message: string | null): void;
  /** Shows a tab of the side area and re-reads what it shows (another front end may have changed it). */
  showSideTab(tab: SideTab): void;
}

/** The slice, with the API its actions call. */
export function createAppSlice(api: ApiClient): StateCreator<AppState, [], [], AppSlice> {
  let spokenLines = 0;
  return (set, get) => ({
    appInfo: null,
    connection: { status: 'connecting' },
    notice: null,
    sideTab: 'channels',
    drawer: null,
    spoken: { polite: null, urgent: null },
    setAppInfo: (appInfo) => set({ appInfo }),
    async refreshAppInfo() {
      try {
        set({ appInfo: await api.call('app/info', {}) });
      } catch (error) {
        get().showNotice(`Could not reach the host: ${messageOf(error)}`);
      }
    },
    setDrawer: (drawer) => set({ drawer }),
    announce(text, urgent) {
      spokenLines += 1;
      const line = { id: spokenLines, text };
      set((state) => ({ spoken: urgent ? { ...state.spoken, urgent: line } : { ...state.spoken, polite: line } }));
    },
    setConnection: (connection) => set({ connection }),
    showNotice: (notice) => set({ notice }),
    showSideTab(sideTab) {
      set({ sideTab });
      if (sideTab === 'devices') void get().refreshDevices();
      else if (sideTab === 'plugins') void get().refreshPlugins();
      else if (sideTab === 'settings') void Promise.all([get().refreshSettings(), get().refreshSecrets()]);
    },
  });
}

/**
 * The one notice line the window shows. While the link to the host is down, its message comes first:
 * it is the cause, and a call that failed meanwhile ("Failed to fetch") is only its symptom. Only the
 * person's own notice can be dismissed; the link's clears itself.
 */
export function shownNotice(
  state: Pick<AppState, 'notice' | 'connection'>,
): { text: string; dismissable: boolean } | null {
  const { connection } = state;
  if (connection.status !== 'open' && connection.message) return { text: connection.message, dismissable: false };
  return state.notice === null ? null : { text: state.notice, dismissable: true };
}
