import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { listAnnouncedPorts, listAnnouncedSimulators } from '../simulator/simulator-index.ts';
import type { MoveReason } from './move-reason.ts';
import type { DeviceIdentity } from '../protocol/frame-schema.ts';

/** Where a paired device went, and how that was told. */
export interface MovedPort {
  path: string;
  because: MoveReason;
}

/** What is known of a paired device to follow it: where it was paired, the identity paired, its by-id link. */
export interface FollowedDevice {
  path: string;
  identity: DeviceIdentity;
  /** The name of its `/dev/serial/by-id` link when it was paired (the adapter's USB serial number). */
  serialLink?: string;
}

/**
 * Where the system names USB serial adapters by their serial number (udev's links to the tty they
 * are on now). `HOME_AGENT_SERIAL_BY_ID` moves it (tests stand a folder of links in for it).
 */
export function serialByIdDirectory(): string {
  return process.env.HOME_AGENT_SERIAL_BY_ID || '/dev/serial/by-id';
}

/**
 * The name of the by-id link that leads to `path` now, or undefined (no such folder, no link there:
 * a pseudo-terminal, a built-in UART, an adapter without a serial number). Never throws.
 */
export async function serialLinkOf(path: string, directory = serialByIdDirectory()): Promise<string | undefined> {
  const target = await realpath(path).catch(() => undefined);
  if (target === undefined) return undefined;
  for (const name of await namesIn(directory)) {
    if ((await realpath(join(directory, name)).catch(() => undefined)) === target) return name;
  }
  return undefined;
}

/**
 * Where a paired device that is not online at its port is now, when the host can tell it is the
 * same device without opening a port: its by-id link (the same USB serial number) leads to another
 * tty, or its port is gone and a running simulator announces a device with its identity (id, kind,
 * model, firmware) at another path (the same simulator entry). Undefined otherwise — a device found elsewhere only by
 * opening ports is the person's to pair again. Never throws.
 */
export async function findMovedPort(
  device: FollowedDevice,
  options: { byIdDirectory?: string; simulatorIndex?: string } = {},
): Promise<MovedPort | undefined> {
  const now = await realpath(device.path).catch(() => undefined);
  if (device.serialLink !== undefined) {
    const directory = options.byIdDirectory ?? serialByIdDirectory();
    // A link name is one file name: another user's folder must not lead us up and out of it.
    if (device.serialLink.includes('/')) return undefined;
    const target = await realpath(join(directory, device.serialLink)).catch(() => undefined);
    if (target !== undefined && target !== now) return { path: target, because: 'usb-serial' };
    return undefined;
  }
  if (now !== undefined) return undefined;
  const index = options.simulatorIndex !== undefined ? { directory: options.simulatorIndex } : {};
  // Its old port still announced by a live simulator: that one is starting or stopping, not moved.
  const simulators = await listAnnouncedSimulators(index);
  if (simulators.some((sim) => sim.devices.some((entry) => entry.path === device.path))) return undefined;
  const { identity } = device;
  // The whole identity it was paired with, as the simulator announces it: a board that only shares its id is another.
  const found = (await listAnnouncedPorts(index)).filter(
    (port) =>
      port.id === identity.id &&
      port.kind === identity.kind &&
      port.model === identity.model &&
      port.firmware === identity.firmware &&
      port.path !== device.path,
  );
  // Two simulators announcing the id: which one is it cannot be told without asking the person.
  if (found.length !== 1) return undefined;
  // The index is a shared folder: only a port of this user's own (a pseudo-terminal its simulator opened) is followed.
  return (await ownedByThisUser(found[0]!.path)) ? { path: found[0]!.path, because: 'simulator' } : undefined;
}

async function ownedByThisUser(path: string): Promise<boolean> {
  const uid = process.getuid?.();
  if (uid === undefined) return false;
  return (await stat(path).catch(() => undefined))?.uid === uid;
}

async function namesIn(directory: string): Promise<string[]> {
  try {
    return (await readdir(directory)).sort();
  } catch {
    // No by-id folder: no USB serial adapter with a serial number is plugged in.
    return [];
  }
}
