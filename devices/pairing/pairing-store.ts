import type { WayInOptions } from '../links/way-in.ts';
import type { DeviceIdentity, DeviceTool } from '../protocol/frame-schema.ts';
import type { PinnedDeclaration } from '../registry/pinned-declaration.ts';
import type { MoveReason } from '../discovery/move-reason.ts';

/** A device the user paired: where it is, what it said it is, what it offers and what the agent may use. */
export interface PairedDevice {
  path: string;
  alias: string;
  /** The room the person put it in (its spelling as the home first used it); absent for none. */
  room?: string;
  /** The identity the user confirmed; a later hello that differs makes the device untrusted. */
  identity: DeviceIdentity;
  /** The tools it declared when paired or last trusted (what grants may name). */
  tools: DeviceTool[];
  /**
   * What the person agreed to, which the device is held to: its tools with their schemas and
   * `confirm` flags, and a profile file's content. Absent for a pairing stored before declarations
   * were pinned, until its first hello pins it.
   */
  pinned?: PinnedDeclaration;
  /** Action names the agent may use; empty right after pairing. */
  grants: string[];
  pairedAt: number;
  /** The person confirmed the identity shown at pairing (always true for records pairing writes). */
  confirmedIdentity: boolean;
  /** The profile the device speaks through (builtin name or file); absent for the Home Agent protocol. */
  profile?: string;
  /** The way in it connects through (`WayIn.kind`). */
  wayIn: string;
  /** Its way in's options as paired (a unit id and the bus settings it was paired at); absent when it has none. */
  options?: WayInOptions;
  /** The name of its `/dev/serial/by-id` link when paired (its adapter's USB serial number): how a move to another tty is told. */
  serialLink?: string;
  /** The port it was followed from, when and how the host told it was the same device (see findMovedPort). */
  movedFrom?: { path: string; at: number; because: MoveReason };
}

/** Where paired devices persist (SQLite in host/, memory in tests). Keyed by identity.id. */
export interface PairingStore {
  list(): PairedDevice[];
  get(deviceId: string): PairedDevice | undefined;
  /**
   * Inserts or updates the device with the same identity.id. `anew`: a new pairing, so whatever
   * was stored under that id goes first, its standing approvals with it.
   */
  save(device: PairedDevice, options?: { anew?: boolean }): void;
  /** Removes the device and everything about it; false if it was not paired. */
  forget(deviceId: string): boolean;
}

/** A PairingStore in memory; returns copies so callers cannot change stored records by accident. */
export class InMemoryPairingStore implements PairingStore {
  private readonly devices = new Map<string, PairedDevice>();

  list(): PairedDevice[] {
    return [...this.devices.values()]
      .map(copy)
      .sort((a, b) => (a.identity.id < b.identity.id ? -1 : a.identity.id > b.identity.id ? 1 : 0));
  }

  get(deviceId: string): PairedDevice | undefined {
    const device = this.devices.get(deviceId);
    return device && copy(device);
  }

  save(device: PairedDevice): void {
    this.devices.set(device.identity.id, copy(device));
  }

  forget(deviceId: string): boolean {
    return this.devices.delete(deviceId);
  }
}

function copy(device: PairedDevice): PairedDevice {
  return structuredClone(device);
}
