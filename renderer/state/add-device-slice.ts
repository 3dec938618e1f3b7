import type { StateCreator } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client.ts';
import type { AppState } from './create-app-store.ts';
import {
  closedAddDevice,
  nextAddDevice,
  type AddDeviceFlow,
  type AddDeviceInput,
  type DevicePlacement,
} from './add-device-flow.ts';
import { messageOf } from './message-of.ts';

/** The "Add device" flow and its actions (scan, look at one device, pair it). */
export interface AddDeviceSlice {
  addDevice: AddDeviceFlow;
  /** Opens the flow and scans at once. */
  openAddDevice(): void;
  closeAddDevice(): void;
  /** Looks for ports again (opening none); `paths` adds ports the person typed. */
  scanPorts(paths?: string[]): Promise<void>;
  /**
   * Asks the host to open the port and say who the device is; `code` is the one-time pairing code a
   * found device needs, sent with this request only and kept nowhere.
   */
  probeDevice(placement: DevicePlacement, code?: string): Promise<void>;
  /** Pairs the device that was shown (with no grants), under `alias` when given, in `room` when given. */
  pairShownDevice(alias: string, room?: string): Promise<void>;
  /** Back to choosing a port. */
  lookAgain(): void;
}

/** The slice, with the API its actions call. */
export function createAddDeviceSlice(api: ApiClient): StateCreator<AppState, [], [], AddDeviceSlice> {
  let requests = 0;
  return (set, get) => {
    const step = (input: AddDeviceInput): void => set({ addDevice: nextAddDevice(get().addDevice, input) });
    return {
      addDevice: closedAddDevice,
      openAddDevice() {
        step({ type: 'open' });
        void get().scanPorts();
      },
      closeAddDevice() {
        step({ type: 'close' });
      },
      async scanPorts(paths) {
        const request = ++requests;
        step({ type: 'scan', request });
        try {
          const answer = await api.call('devices/scan', paths && paths.length > 0 ? { paths } : {});
          step({ type: 'scanned', request, answer });
        } catch (error) {
          step({ type: 'scan-failed', request, message: `Could not look for ports: ${messageOf(error)}` });
        }
      },
      async probeDevice(placement, code) {
        const request = ++requests;
        step({ type: 'probe', request, placement });
        try {
          const device = await api.call('devices/probe', { ...placement, ...(code !== undefined ? { code } : {}) });
          step({ type: 'probed', request, device });
        } catch (error) {
          step({ type: 'probe-failed', request, message: messageOf(error) });
        }
      },
      async pairShownDevice(alias, room = '') {
        const { probe } = get().addDevice;
        if (probe.status !== 'done' || !probe.device || !probe.placement) return;
        step({ type: 'pair' });
        if (get().addDevice.pair.status !== 'pairing') return;
        const name = alias.trim();
        try {
          const paired = await api.call('devices/pair', {
            ...probe.placement,
            identity: probe.device.identity,
            // What was shown is what is pinned: the host refuses a device that declares otherwise by now.
            ...(probe.device.declarationHash !== undefined ? { declarationHash: probe.device.declarationHash } : {}),
            ...(name ? { alias: name } : {}),
            ...(room.trim() ? { room: room.trim() } : {}),
          });
          step({ type: 'paired', deviceId: paired.deviceId, alias: paired.alias });
          void get().refreshDevices();
        } catch (error) {
          step({ type: 'pair-failed', message: messageOf(error) });
        }
      },
      lookAgain() {
        step({ type: 'look-again' });
      },
    };
  };
}
