import type { StateCreator } from 'zustand/vanilla';
import type { PinAction } from '../../host/contract/api-contract.ts';
import type { ApiClient } from '../api/api-client.ts';
import type { AppState } from './create-app-store.ts';
import { messageOf } from './message-of.ts';

/**
 * The approval PIN as the window knows it: whether one is set, what the person typed into each open
 * question's PIN field (sent with its answer, never kept after), which actions of each device need it,
 * and the outcome of the last change in Settings. The PIN itself is never read back from the host.
 */
export interface ApprovalPinSlice {
  /** Whether the host has an approval PIN; null until asked. */
  pinSet: boolean | null;
  /** What the last Settings change said (saved, or why not). */
  pinMessage: { ok: boolean; text: string } | null;
  /** What is typed into a question's PIN field, by approval key (or a batch's first key). */
  pinDrafts: Record<string, string>;
  /** Each device's actions and whether they need the PIN, as the host last said. */
  pinActions: Record<string, PinAction[]>;
  setPinDraft(key: string, pin: string): void;
  refreshPinStatus(): Promise<void>;
  /** Sets, changes (`currentPin` given) or removes (`pin` empty) the PIN; true when done. */
  changePin(options: { pin: string; currentPin: string }): Promise<boolean>;
  refreshPinActions(deviceId: string): Promise<void>;
  setNeedsPin(deviceId: string, action: string, needsPin: boolean): Promise<void>;
}

/** The slice, with the API its actions call. */
export function createApprovalPinSlice(api: ApiClient): StateCreator<AppState, [], [], ApprovalPinSlice> {
  return (set, get) => ({
    pinSet: null,
    pinMessage: null,
    pinDrafts: {},
    pinActions: {},
    setPinDraft(key, pin) {
      set({ pinDrafts: { ...get().pinDrafts, [key]: pin } });
    },
    async refreshPinStatus() {
      try {
        const { set: isSet } = await api.call('pin/status', {});
        set({ pinSet: isSet });
      } catch (error) {
        set({ pinMessage: { ok: false, text: `Could not tell whether a PIN is set: ${messageOf(error)}` } });
      }
    },
    async changePin({ pin, currentPin }) {
      const current = currentPin === '' ? {} : { currentPin };
      try {
        const done =
          pin === '' ? await api.call('pin/remove', { currentPin }) : await api.call('pin/set', { pin, ...current });
        const text = done.changed
          ? pin === ''
            ? 'The approval PIN was removed.'
            : 'The approval PIN was saved.'
          : (done.message ?? 'Not changed.');
        set({ pinMessage: { ok: done.changed, text } });
        await get().refreshPinStatus();
        return done.changed;
      } catch (error) {
        set({ pinMessage: { ok: false, text: `Could not change the PIN: ${messageOf(error)}` } });
        return false;
      }
    },
    async refreshPinActions(deviceId) {
      try {
        const { actions } = await api.call('devices/pin-actions', { deviceId });
        set({ pinActions: { ...get().pinActions, [deviceId]: actions } });
      } catch {
        // A device the host no longer knows shows no PIN toggles; its card says why elsewhere.
        set({ pinActions: { ...get().pinActions, [deviceId]: [] } });
      }
    },
    async setNeedsPin(deviceId, action, needsPin) {
      const { actions } = await api.call('devices/pin', { deviceId, action, needsPin });
      set({ pinActions: { ...get().pinActions, [deviceId]: actions } });
    },
  });
}
