import type { LineProfile } from '../profiles/line-profile-schema.ts';
import { profileForKind, type SimulatedKind } from './device-catalog.ts';
import type { SimulatedFirmware } from './simulated-firmware.ts';

/** One simulated device: the firmware that plays it and what the host needs to reach it. */
export interface SimulatedDevice {
  id: string;
  kind: SimulatedKind;
  /** The port the app opens (a pseudo-terminal); in-process, a label shaped like a path (`sim:lamp-1`). */
  path: string;
  firmware: SimulatedFirmware;
  /** Set for devices that speak text lines: attach with `{ profile }` so the host can talk to them. */
  profile?: LineProfile;
}

/** The device `firmware` plays, reached at `path`: its id and kind are the firmware's, its line profile the kind's. */
export function simulatedDevice(firmware: SimulatedFirmware, path: string): SimulatedDevice {
  const kind = firmware.identity.kind as SimulatedKind;
  const profile = profileForKind(kind);
  return { id: firmware.identity.id, kind, path, firmware, ...(profile ? { profile } : {}) };
}

/** The device with this id among `devices`; throws naming the id when there is none. */
export function findSimulatedDevice<T extends SimulatedDevice>(devices: readonly T[], id: string): T {
  const device = devices.find((candidate) => candidate.id === id);
  if (device === undefined) throw new Error(`no simulated device ${id}`);
  return device;
}
