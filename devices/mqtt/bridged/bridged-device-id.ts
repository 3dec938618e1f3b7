import { deviceIdentitySchema } from '../../protocol/frame-schema.ts';
import { bridgeNameSchema } from './bridge-name.ts';

/** The path prefix of bridged devices (`mqtt:cellar/lamp-1`): the family's source. */
export const BRIDGED_SOURCE = 'mqtt';

/** Where one bridged device is: its bridge and its id on that bridge. */
export interface BridgedAddress {
  bridge: string;
  /** The device's own id, as the bridge's machine knows it (`lamp-1`). */
  device: string;
}

/**
 * The id the host knows a bridged device by: `BRIDGE.ID` (`cellar.lamp-1`), so two bridges' `lamp-1`
 * never collide; undefined when it would not be a device id (over 64 characters).
 */
export function bridgedDeviceId(address: BridgedAddress): string | undefined {
  const id = `${address.bridge}.${address.device}`;
  return deviceIdentitySchema.shape.id.safeParse(id).success ? id : undefined;
}

/** A bridged device's path, as scans list it and pairings keep it: `mqtt:BRIDGE/ID`. */
export function bridgedPath(address: BridgedAddress): string {
  return `${BRIDGED_SOURCE}:${address.bridge}/${address.device}`;
}

/** The bridge and device a path names, or undefined when it is no bridged path (or names what no bridge may publish). */
export function parseBridgedPath(path: string): BridgedAddress | undefined {
  const match = /^mqtt:([^/]+)\/([^/]+)$/.exec(path);
  if (!match) return undefined;
  const [, bridge, device] = match as unknown as [string, string, string];
  if (!bridgeNameSchema.safeParse(bridge).success) return undefined;
  if (bridgedDeviceId({ bridge, device }) === undefined) return undefined;
  if (!deviceIdentitySchema.shape.id.safeParse(device).success) return undefined;
  return { bridge, device };
}
