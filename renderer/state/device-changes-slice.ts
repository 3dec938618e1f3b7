import type { StateCreator } from 'zustand/vanilla';
import type { DeviceIdentity } from '../../host/contract/api-contract.ts';
import type { ApiClient } from '../api/api-client.ts';
import type { AppState } from './create-app-store.ts';
import { withGranted } from './device-events-reducer.ts';
import { messageOf } from './message-of.ts';

/** A change to one device on its way (what it is, for aria-busy and the status line), or the last refusal. */
export interface DeviceChangeState {
  pending?: string;
  error?: string;
}

/** Grants, names, forgetting and trust of paired devices: each goes to the host, which tells every front end. */
export interface DeviceChangesSlice {
  deviceChanges: Record<string, DeviceChangeState>;
  /** Allows (or takes back) one action; the switch shows the host's answer. */
  setActionAllowed(deviceId: string, action: string, allowed: boolean): Promise<void>;
  allowAllActions(deviceId: string): Promise<void>;
  revokeAllActions(deviceId: string): Promise<void>;
  /** True when the host took the new name. */
  renameDevice(deviceId: string, alias: string): Promise<boolean>;
  /** Puts a device in a room, or in none (`''`); true when the host took it. */
  setDeviceRoom(deviceId: string, room: string): Promise<boolean>;
  /** True when the device is forgotten. */
  forgetDevice(deviceId: string): Promise<boolean>;
  /** Trusts what a device says now, if it still says `identity` and declares what `declarationHash` names (what was shown). */
  trustNewIdentity(deviceId: string, identity: DeviceIdentity, declarationHash?: string): Promise<void>;
  /** Takes back a standing approval ("Always allow"): the next such call asks again. */
  stopAlwaysAllowing(tool: string, deviceId?: string): Promise<void>;
}

/** The slice, with the API its actions call. */
export function createDeviceChangesSlice(api: ApiClient): StateCreator<AppState, [], [], DeviceChangesSlice> {
  return (set, get) => {
    const mark = (deviceId: string, change: DeviceChangeState): void =>
      set((state) => ({ deviceChanges: { ...state.deviceChanges, [deviceId]: change } }));

    /** Runs one change; false (with the host's refusal shown beside the device) when it failed. */
    async function change<T>(deviceId: string, what: string, run: () => Promise<T>): Promise<T | undefined> {
      if (get().deviceChanges[deviceId]?.pending) return undefined;
      mark(deviceId, { pending: what });
      try {
        const answer = await run();
        mark(deviceId, {});
        void get().refreshDevices();
        return answer;
      } catch (error) {
        mark(deviceId, { error: `Could not ${what}: ${messageOf(error)}` });
        return undefined;
      }
    }

    const applyGrant = (answer: { deviceId: string; granted: string[] } | undefined): void => {
      if (answer) set((state) => ({ devices: withGranted(state.devices, answer.deviceId, answer.granted) }));
    };

    return {
      deviceChanges: {},
      async setActionAllowed(deviceId, action, allowed) {
        applyGrant(
          await change(deviceId, `${allowed ? 'allow' : 'revoke'} ${action}`, () =>
            api.call(allowed ? 'devices/grant' : 'devices/revoke', { deviceId, actions: [action] }),
          ),
        );
      },
      async allowAllActions(deviceId) {
        applyGrant(
          await change(deviceId, 'allow all actions', () => api.call('devices/grant', { deviceId, all: true })),
        );
      },
      async revokeAllActions(deviceId) {
        applyGrant(
          await change(deviceId, 'revoke all actions', () => api.call('devices/revoke', { deviceId, all: true })),
        );
      },
      async renameDevice(deviceId, alias) {
        const answer = await change(deviceId, 'rename it', () => api.call('devices/rename', { deviceId, alias }));
        if (answer)
          set((state) => ({
            devices: state.devices.map((device) =>
              device.id === deviceId && device.source === 'paired' ? { ...device, alias: answer.alias } : device,
            ),
          }));
        return answer !== undefined;
      },
      async setDeviceRoom(deviceId, room) {
        const answer = await change(deviceId, 'move it', () =>
          api.call('devices/room', { deviceId, room: room.trim() ? room.trim() : null }),
        );
        if (answer)
          set((state) => ({
            devices: state.devices.map((device) =>
              device.id === deviceId && device.source === 'paired' ? { ...device, room: answer.room } : device,
            ),
          }));
        return answer !== undefined;
      },
      async forgetDevice(deviceId) {
        const answer = await change(deviceId, 'forget it', () => api.call('devices/forget', { deviceId }));
        if (answer?.forgotten)
          set((state) => ({
            devices: state.devices.filter((device) => !(device.id === deviceId && device.source === 'paired')),
          }));
        return answer?.forgotten === true;
      },
      async trustNewIdentity(deviceId, identity, declarationHash) {
        await change(deviceId, 'trust the new identity', () =>
          api.call('devices/trust', {
            deviceId,
            identity,
            ...(declarationHash !== undefined ? { declarationHash } : {}),
          }),
        );
      },
      async stopAlwaysAllowing(tool, deviceId) {
        await change(deviceId ?? `tool:${tool}`, `stop always allowing ${tool}`, () =>
          api.call('approvals/revoke', { tool, ...(deviceId !== undefined ? { deviceId } : {}) }),
        );
        void get().refreshStandingApprovals();
      },
    };
  };
}
