import type { DeviceIdentity } from './frame-schema.ts';

/** Whether two identities are the same device: id, kind, model and firmware all equal. */
export function sameIdentity(a: DeviceIdentity, b: DeviceIdentity): boolean {
  return a.id === b.id && a.kind === b.kind && a.model === b.model && a.firmware === b.firmware;
}
