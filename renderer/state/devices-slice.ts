import type { StateCreator } from 'zustand/vanilla';
import type { DeviceSummary, HostNotice } from '../../host/contract/api-contract.ts';
import { addDeviceEvent } from './device-events-reducer.ts';
import type { ApiClient } from '../api/api-client.ts';
import { messageOf } from './message-of.ts';
import type { AppState } from './create-app-store.ts';
import type { LoadStatus } from './load-status.ts';
import { newestWins } from './newest-wins.ts';

/** The host's devices as it last listed them, and how the last look-up went. */
export interface DevicesSlice {
  devices: DeviceSummary[];
  devicesStatus: LoadStatus;
  /** Why the last look-up failed; null once one succeeds. */
  devicesError: string | null;
  /** Re-reads the list from the host; only the newest of overlapping look-ups is kept. */
  refreshDevices(): Promise<void>;
  /** A device announced something (a button, a door): it joins the device's recent events. */
  receiveDeviceEvent(notice: Extract<HostNotice, { type: 'device/event' }>): void;
}

/** The slice, with the API its actions call. */
export function createDevicesSlice(api: ApiClient): StateCreator<AppState, [], [], DevicesSlice> {
  const lookUps = newestWins();
  return (set, get) => ({
    devices: [],
    devicesStatus: 'idle',
    devicesError: null,
    async refreshDevices() {
      set({ devicesStatus: 'loading' });
      await lookUps.run({
        request: () => api.call('devices/list', {}),
        onAnswer: ({ devices }) => set({ devices, devicesStatus: 'loaded', devicesError: null }),
        onError: (error) =>
          set({ devicesStatus: 'failed', devicesError: `Could not list the devices: ${messageOf(error)}` }),
      });
    },
    receiveDeviceEvent(notice) {
      set({ devices: addDeviceEvent(get().devices, notice, Date.now()) });
    },
  });
}
