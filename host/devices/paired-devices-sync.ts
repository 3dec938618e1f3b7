import type { DevicePairing } from '../../devices/pairing/device-pairing.ts';
import type { PairedDevice, PairingStore } from '../../devices/pairing/pairing-store.ts';
import { sameIdentity } from '../../devices/protocol/same-identity.ts';
import { samePinned } from '../../devices/registry/pinned-declaration.ts';
import type { DeviceRegistry } from '../../devices/registry/device-registry.ts';
import { findMovedPort, type MovedPort } from '../../devices/discovery/follow-moved-device.ts';
import { describeMove } from '../../devices/discovery/move-reason.ts';
import { startStoreLooks } from '../store/store-looks.ts';

/** A paired device that cannot be attached because its id or port is already another device's. */
export interface DeviceConflict {
  /** The paired record left out. */
  paired: PairedDevice;
  /** What holds its id or port, and what the person can do about it. */
  message: string;
}

/** Options of the sync: the registry it keeps true to the store, and how it learns the store changed. */
export interface PairedDevicesSyncOptions {
  registry: DeviceRegistry;
  store: PairingStore;
  pairing: DevicePairing;
  /** SQLite's `data_version` of the host's connection: it moves when another connection commits. */
  dataVersion: () => number;
  /** Where the devices named on the command line sit (`--sim`, `--device`): never the store's to change. */
  commandLineAddresses: ReadonlySet<string>;
  /** How often to look for changes made elsewhere while nothing asks (default 200 ms). */
  pollMs?: number;
  /** Something changed in the store that the registry does not show (approvals, a conflict): re-list. */
  onStoreChange?: () => void;
  /** Where a paired device that is not online went, told without opening a port (default findMovedPort). */
  findMoved?: (record: PairedDevice) => Promise<MovedPort | undefined>;
  /** How often to look for paired devices that moved while they are not online (default 1000 ms). */
  followMs?: number;
  /** Milliseconds since the epoch (when a move is stored). */
  now?: () => number;
  log: (line: string) => void;
}

/**
 * Keeps the registry true to the store, the one source of truth for pairing, grants, aliases and
 * trusted identities. `check()` is synchronous and cheap when nothing changed (one `PRAGMA
 * data_version`); the devices plugin calls it before every listing and every call, so a change
 * committed by another process (the CLI, another window) applies to the next call. A timer calls
 * it too, so front ends see such a change live. Ids stay unique: a paired device whose id or port
 * another device already has is left out and reported as a conflict, never dropped silently.
 */
export class PairedDevicesSync {
  private version: number | undefined;
  private stopLooks: (() => void) | undefined;
  private followTimer: ReturnType<typeof setInterval> | undefined;
  private following: Promise<void> | undefined;
  private conflictList: DeviceConflict[] = [];
  private readonly reported = new Set<string>();
  private readonly placements = new Map<string, string>();
  private readonly pending = new Set<Promise<unknown>>();
  private disposed = false;

  constructor(private readonly options: PairedDevicesSyncOptions) {}

  /** Applies what another connection committed since the last look; true when it found a change. */
  check(): boolean {
    if (this.disposed) return false;
    const version = this.options.dataVersion();
    if (version === this.version) return false;
    this.version = version;
    this.apply();
    this.options.onStoreChange?.();
    return true;
  }

  /** Applies the store now (after this host wrote to it itself: its own writes do not move data_version). */
  refresh(): void {
    if (this.disposed) return;
    this.version = this.options.dataVersion();
    this.apply();
  }

  /** Paired devices left out because another device has their id or port. */
  conflicts(): readonly DeviceConflict[] {
    return this.conflictList;
  }

  /** Starts looking for changes made elsewhere every `pollMs`; the timer never keeps the process alive. */
  start(): void {
    if (this.stopLooks !== undefined || this.disposed) return;
    this.stopLooks = startStoreLooks({
      check: () => this.check(),
      pollMs: this.options.pollMs ?? 200,
      what: 'the paired devices',
      log: this.options.log,
    });
    this.followTimer = setInterval(() => void this.followMoved(), this.options.followMs ?? 1000);
    this.followTimer.unref?.();
  }

  /**
   * Follows each paired device that is not online to the port it moved to, when that can be told
   * without opening a port (findMovedPort: the same USB serial number, the same simulated device):
   * its record gets the new path and where it came from, and it is attached there with its grants
   * and pinned declaration — the record is the same one, only its path changed.
   */
  followMoved(): Promise<void> {
    this.following ??= this.followOnce().finally(() => (this.following = undefined));
    return this.following;
  }

  private async followOnce(): Promise<void> {
    const { registry, store } = this.options;
    const findMoved =
      this.options.findMoved ??
      ((record: PairedDevice) =>
        findMovedPort({
          path: record.path,
          identity: record.identity,
          ...(record.serialLink !== undefined ? { serialLink: record.serialLink } : {}),
        }));
    for (const record of store.list()) {
      if (this.disposed) return;
      const id = record.identity.id;
      const attached = registry.list().find((device) => device.id === id);
      // Only a paired device this host attached and cannot reach; a conflict is the person's to resolve.
      if (attached === undefined || attached.online || this.options.commandLineAddresses.has(attached.address))
        continue;
      if (this.conflictList.some((conflict) => conflict.paired.identity.id === id)) continue;
      const moved = await findMoved(record).catch(() => undefined);
      const current = store.get(id);
      if (moved === undefined || this.disposed || current === undefined || current.path !== record.path) continue;
      try {
        store.save({
          ...current,
          path: moved.path,
          movedFrom: { path: record.path, at: (this.options.now ?? Date.now)(), because: moved.because },
        });
      } catch (error) {
        this.options.log(
          `${id} seems to be at ${moved.path} now, but could not be moved there: ${(error as Error).message}`,
        );
        continue;
      }
      this.options.log(
        `${id} ${describeMove({ from: record.path, to: moved.path, because: moved.because })}: it is used there with its grants`,
      );
      this.refresh();
      this.options.onStoreChange?.();
    }
  }

  /** Stops the timer and waits for the sessions it let go of to close. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.stopLooks?.();
    if (this.followTimer !== undefined) clearInterval(this.followTimer);
    this.stopLooks = undefined;
    this.followTimer = undefined;
    await this.following;
    await Promise.allSettled([...this.pending]);
  }

  private apply(): void {
    const { registry } = this.options;
    const records = this.options.store.list();
    const wanted = new Map(records.map((record) => [record.identity.id, record]));
    const conflicts: DeviceConflict[] = [];
    // Devices this host attached from the store that are no longer paired (forgotten elsewhere) go first.
    for (const device of registry.list()) {
      if (this.options.commandLineAddresses.has(device.address) || wanted.has(device.id)) continue;
      this.detach(device.address, device.id);
    }
    for (const record of records) {
      const id = record.identity.id;
      let address: string;
      try {
        address = this.options.pairing.addressOf(record);
      } catch (error) {
        // A pairing this host cannot reach (a way in it does not have): listed as left out, never dropped.
        conflicts.push({ paired: record, message: `${id} is left out: ${(error as Error).message}` });
        continue;
      }
      const placement = placementKey(record);
      const attached = registry.list().find((device) => device.id === id);
      if (attached && this.options.commandLineAddresses.has(attached.address)) {
        conflicts.push({
          paired: record,
          message: `${id} is paired at ${record.path}, but the device at ${attached.address} (named on the command line) has that id: the paired one is left out. Forget it, or start without the other device.`,
        });
        continue;
      }
      if (attached) {
        const entry = registry.get(id);
        const knownPlacement = this.placements.get(id) ?? placement;
        const moved =
          attached.address !== address ||
          knownPlacement !== placement ||
          (entry !== undefined && !sameIdentity(entry.trustedIdentity, record.identity));
        if (!moved) {
          this.placements.set(id, placement);
          if (!sameGrant(attached.grant, record.grants)) registry.setGrant(id, record.grants);
          if (attached.alias !== record.alias) registry.setAlias(id, record.alias);
          // A declaration pinned by another process (it trusted what the device declares now) holds it from here.
          if (
            entry !== undefined &&
            record.pinned !== undefined &&
            !samePinned(registry.pinnedDeclaration(id), record.pinned)
          )
            registry.setPinnedDeclaration(id, record.pinned);
          continue;
        }
        this.detach(attached.address, id);
      }
      // Units of one bus share its path: only the same address is the same place for them.
      const holder = registry
        .list()
        .find((device) => device.address === address || (address === record.path && device.path === record.path));
      if (holder && this.options.commandLineAddresses.has(holder.address)) {
        conflicts.push({
          paired: record,
          message: `${id} is paired at ${record.path}, which the device ${holder.id} named on the command line uses: the paired one is left out.`,
        });
        continue;
      }
      if (holder) this.detach(holder.address, holder.id);
      this.attach(record, placement);
    }
    this.conflictList = conflicts;
    for (const conflict of conflicts) {
      const key = `${conflict.paired.identity.id}@${conflict.paired.path}`;
      if (this.reported.has(key)) continue;
      this.reported.add(key);
      this.options.log(conflict.message);
    }
  }

  private attach(record: PairedDevice, placement: string): void {
    this.placements.set(record.identity.id, placement);
    try {
      this.track(
        this.options.pairing.attach(record).catch((error: unknown) => {
          this.placements.delete(record.identity.id);
          this.options.log(`could not attach ${record.identity.id} at ${record.path}: ${(error as Error).message}`);
        }),
      );
    } catch (error) {
      this.placements.delete(record.identity.id);
      this.options.log(`could not attach ${record.identity.id} at ${record.path}: ${(error as Error).message}`);
    }
  }

  private detach(address: string, id: string): void {
    this.placements.delete(id);
    // The registry drops the entry at once (the next call finds it gone); its port closes meanwhile.
    this.track(
      this.options.registry
        .detach(address)
        .catch((error: unknown) => this.options.log(`could not let go of ${address}: ${(error as Error).message}`)),
    );
  }

  private track(promise: Promise<unknown>): void {
    this.pending.add(promise);
    void promise.finally(() => this.pending.delete(promise));
  }
}

/** How a paired device is reached: a change here means closing its link and opening a new one. */
function placementKey(record: PairedDevice): string {
  return JSON.stringify([record.path, record.profile ?? null, record.wayIn, record.options ?? null]);
}

function sameGrant(grant: 'all' | readonly string[], grants: readonly string[]): boolean {
  if (grant === 'all') return false;
  return grant.length === grants.length && [...grant].sort().join('\n') === [...grants].sort().join('\n');
}
