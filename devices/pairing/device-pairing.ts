import { ModbusBuses } from '../modbus/modbus-buses.ts';
import { describeBus, type ModbusBusSettings, type ModbusPlacement } from '../modbus/modbus-bus-settings.ts';
import type { ModbusProfile } from '../modbus/modbus-profile-schema.ts';
import { describeReading } from '../modbus/modbus-tools.ts';
import type { DeviceIdentity, DeviceTool } from '../protocol/frame-schema.ts';
import { modbusPlacement, type DeviceRegistry } from '../registry/device-registry.ts';
import type { TransportConnector } from '../transport/line-transport.ts';
import { serialConnector } from '../transport/serial-line-transport.ts';
import type { PairedDevice, PairingStore } from './pairing-store.ts';
import { probeDevice } from './probe-device.ts';
import { profileConnector } from '../profiles/profile-connector.ts';
import { resolveDeviceProfile, resolveProfile } from '../profiles/resolve-profile.ts';

/** What the user is shown before confirming a pairing (or a changed identity). */
export interface PairingCandidate {
  path: string;
  identity: DeviceIdentity;
  tools: DeviceTool[];
  /** Set when re-confirming: the identity that was paired before. */
  previousIdentity?: DeviceIdentity;
  /** More to show: for a Modbus unit its unit, bus settings and profile, and what it reads now. */
  details?: string[];
}

/** Asks the user; true pairs (or re-trusts) the device. */
export type ConfirmPairing = (candidate: PairingCandidate) => boolean | Promise<boolean>;

/**
 * Pairing: open → hello → show identity → user confirms → stored with no grants, attached to the
 * registry. Grants, revocation, forgetting and re-confirming a changed identity go through here,
 * so store and registry never disagree.
 */
export class DevicePairing {
  constructor(
    private readonly options: {
      store: PairingStore;
      registry: DeviceRegistry;
      connectorFor?: (path: string) => TransportConnector;
      now?: () => number;
    },
  ) {}

  /** Attaches every paired device (offline ones too, listed with their remembered tools). */
  async attachPaired(): Promise<void> {
    for (const paired of this.options.store.list()) {
      const address = pairedAddress(paired);
      if (this.options.registry.list().some((device) => device.address === address || device.id === paired.identity.id))
        continue;
      await this.attach(paired);
    }
  }

  /**
   * Attaches one paired device as stored (grants, alias, trusted identity, remembered tools) without
   * waiting for it: it is in the registry when this returns, before the promise settles.
   */
  attach(paired: PairedDevice): Promise<unknown> {
    const remembered = {
      grant: paired.grants,
      alias: paired.alias,
      trustedIdentity: paired.identity,
      knownTools: paired.tools,
      waitOnlineMs: 0,
    };
    if (paired.modbus) {
      const profile = modbusProfileOf(paired.profile);
      return this.options.registry.attach(paired.path, { ...remembered, modbus: { profile, ...paired.modbus } });
    }
    return this.options.registry.attachConnector(this.connector(paired.path, paired.profile), remembered);
  }

  /**
   * Pairs the device at `path` (a Modbus unit when the profile is a Modbus one: then `modbus.unit`
   * is needed); null when the user declines. Throws when the device does not answer.
   */
  async pair(options: {
    path: string;
    alias?: string;
    profile?: string;
    modbus?: Partial<ModbusPlacement>;
    confirm: ConfirmPairing;
    timeoutMs?: number;
    signal?: AbortSignal;
  }): Promise<PairedDevice | null> {
    const resolved = options.profile === undefined ? undefined : resolveDeviceProfile(options.profile);
    if (resolved?.protocol === 'modbus-rtu')
      return this.pairModbus({ ...options, profile: resolved.name }, resolved.profile);
    if (options.modbus !== undefined)
      throw new Error('a unit and bus settings apply to Modbus profiles only (eastron-sdm120, relay-8, or a file)');
    const { registry } = this.options;
    const attached = registry.list().find((device) => device.path === options.path);
    if (attached) await registry.detach(attached.path);
    const candidate = await this.probe(options);
    if (!(await options.confirm(candidate))) return null;
    return this.keep(candidate, options);
  }

  /**
   * Asks the device at `path` who it is, pairing nothing: a port that speaks our protocol or a line
   * profile is opened just long enough for its hello (the caller makes sure nothing holds it); a
   * Modbus unit is read through the registry's bus. Throws when it does not answer.
   */
  async probe(options: {
    path: string;
    profile?: string;
    modbus?: Partial<ModbusPlacement>;
    timeoutMs?: number;
    signal?: AbortSignal;
  }): Promise<PairingCandidate & { modbus?: ModbusPlacement }> {
    const resolved = options.profile === undefined ? undefined : resolveDeviceProfile(options.profile);
    if (resolved?.protocol === 'modbus-rtu')
      return this.probeModbus({ ...options, profile: resolved.name }, resolved.profile);
    if (options.modbus !== undefined)
      throw new Error('a unit and bus settings apply to Modbus profiles only (eastron-sdm120, relay-8, or a file)');
    const hello = await probeDevice({
      connector: this.connector(options.path, options.profile),
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    });
    return { path: options.path, identity: hello.device, tools: hello.tools };
  }

  /** Renames a paired device (what the person and the model call it). */
  rename(deviceId: string, alias: string): PairedDevice {
    const paired = this.require(deviceId);
    const updated = { ...paired, alias };
    this.options.store.save(updated);
    if (this.options.registry.get(deviceId)) this.options.registry.setAlias(deviceId, alias);
    return updated;
  }

  /** Lets the agent use these actions of a paired device (added to what it had). */
  grant(deviceId: string, actions: readonly string[]): PairedDevice {
    const paired = this.require(deviceId);
    const known = new Set(paired.tools.map((tool) => tool.name));
    const unknown = actions.filter((action) => !known.has(action));
    if (unknown.length > 0) throw new Error(`${deviceId} has no action ${unknown.join(', ')}`);
    return this.setGrants(paired, [...new Set([...paired.grants, ...actions])].sort());
  }

  /** Takes these actions away from the agent. */
  revoke(deviceId: string, actions: readonly string[]): PairedDevice {
    const paired = this.require(deviceId);
    return this.setGrants(
      paired,
      paired.grants.filter((action) => !actions.includes(action)),
    );
  }

  /** Removes everything about the device: record, grants, and its session. */
  async forget(deviceId: string): Promise<boolean> {
    const paired = this.options.store.get(deviceId);
    // A Modbus unit shares its path with the other units of its bus: only its own address is its.
    const where = paired && pairedAddress(paired);
    await this.options.registry.detach(where ?? deviceId);
    return this.options.store.forget(deviceId);
  }

  /** Shows a device whose hello changed since pairing; on confirmation its new identity is trusted and stored. */
  async reconfirm(deviceId: string, confirm: ConfirmPairing): Promise<boolean> {
    const paired = this.require(deviceId);
    const entry = this.options.registry.get(deviceId);
    const hello = entry?.session.hello;
    if (entry === undefined || hello === undefined) throw new Error(`${deviceId} is not connected`);
    if (entry.trusted) return true;
    const accepted = await confirm({
      path: paired.path,
      identity: hello.device,
      tools: hello.tools,
      previousIdentity: paired.identity,
    });
    if (!accepted) return false;
    this.options.registry.trustCurrentIdentity(deviceId);
    if (hello.device.id !== deviceId) this.options.store.forget(deviceId);
    this.options.store.save({ ...paired, identity: hello.device, tools: hello.tools, confirmedIdentity: true });
    return true;
  }

  /** Reads a Modbus unit's identity through the registry's bus (shared with units already attached) and pairs it. */
  private async pairModbus(
    options: {
      path: string;
      alias?: string;
      profile: string;
      modbus?: Partial<ModbusPlacement>;
      confirm: ConfirmPairing;
      timeoutMs?: number;
      signal?: AbortSignal;
    },
    profile: ModbusProfile,
  ): Promise<PairedDevice | null> {
    const { registry } = this.options;
    const unit = options.modbus?.unit;
    if (unit !== undefined) {
      const address = modbusPlacement(options.path, unit).address;
      if (registry.list().some((device) => device.address === address)) await registry.detach(address);
    }
    const candidate = await this.probeModbus(options, profile);
    if (!(await options.confirm(candidate))) return null;
    return this.keep(candidate, options);
  }

  /** Reads a Modbus unit's identity through the registry's bus (shared with units already attached). */
  private async probeModbus(
    options: {
      path: string;
      profile: string;
      modbus?: Partial<ModbusPlacement>;
      timeoutMs?: number;
      signal?: AbortSignal;
    },
    profile: ModbusProfile,
  ): Promise<PairingCandidate & { modbus: ModbusPlacement }> {
    const { registry } = this.options;
    const unit = options.modbus?.unit;
    if (unit === undefined)
      throw new Error(`${options.profile} is a Modbus profile: give the unit id of the device (--unit N, 1–247)`);
    const bus: ModbusBusSettings = ModbusBuses.settingsFor(profile, { unit, bus: options.modbus?.bus ?? {} });
    const { hello, reading } = await registry.probeModbus(
      options.path,
      { profile, unit, bus },
      { timeoutMs: options.timeoutMs ?? 3000, ...(options.signal ? { signal: options.signal } : {}) },
    );
    return {
      path: options.path,
      identity: hello.device,
      tools: hello.tools,
      details: [
        `Modbus unit ${unit} at ${describeBus(bus)}, profile ${options.profile} (${profile.name})`,
        ...(Object.keys(reading).length > 0 ? [`reads now: ${describeReading(profile, reading)}`] : []),
      ],
      modbus: { unit, bus },
    };
  }

  /**
   * Stores the device the person confirmed, with no grants, and attaches it as stored: the same
   * record the next start attaches (`attach`). The id it answers with must be free (`makeRoomFor`).
   */
  private async keep(
    candidate: PairingCandidate & { modbus?: ModbusPlacement },
    options: { alias?: string; profile?: string },
  ): Promise<PairedDevice> {
    const paired: PairedDevice = {
      path: candidate.path,
      alias: options.alias ?? candidate.identity.id,
      identity: candidate.identity,
      tools: candidate.tools,
      grants: [],
      pairedAt: (this.options.now ?? Date.now)(),
      confirmedIdentity: true,
      ...(options.profile !== undefined ? { profile: options.profile } : {}),
      ...(candidate.modbus ? { modbus: candidate.modbus } : {}),
    };
    await this.makeRoomFor(paired.identity.id, pairedAddress(paired));
    this.options.store.save(paired);
    await this.attach(paired);
    return paired;
  }

  /**
   * Ids are unique across every way in: a device paired before under this id (it moved to another
   * port) is detached to be paired again here; any other device attached with this id refuses the pairing.
   */
  private async makeRoomFor(deviceId: string, address: string): Promise<void> {
    const { registry, store } = this.options;
    const holder = registry.list().find((device) => device.id === deviceId && device.address !== address);
    if (holder === undefined) return;
    if (store.get(deviceId) === undefined)
      throw new Error(
        `the device answers with id ${deviceId}, which the device at ${holder.address} already has; ids must be unique (stop the other one, e.g. run without --sim, then pair again)`,
      );
    await registry.detach(holder.address);
  }

  private setGrants(paired: PairedDevice, grants: string[]): PairedDevice {
    const updated = { ...paired, grants };
    this.options.store.save(updated);
    if (this.options.registry.get(paired.identity.id)) this.options.registry.setGrant(paired.identity.id, grants);
    return updated;
  }

  private require(deviceId: string): PairedDevice {
    const paired = this.options.store.get(deviceId);
    if (paired === undefined) throw new Error(`${deviceId} is not paired`);
    return paired;
  }

  private connector(path: string, profileName?: string): TransportConnector {
    const plain = this.options.connectorFor?.(path) ?? serialConnector({ path });
    return profileName === undefined ? plain : profileConnector(plain, resolveProfile(profileName));
  }
}

/** Where a paired device sits among attached ones: its path, or its path and Modbus unit. */
export function pairedAddress(paired: Pick<PairedDevice, 'path' | 'modbus'>): string {
  return paired.modbus ? modbusPlacement(paired.path, paired.modbus.unit).address : paired.path;
}

function modbusProfileOf(name: string | undefined): ModbusProfile {
  const resolved = name === undefined ? undefined : resolveDeviceProfile(name);
  if (resolved?.protocol !== 'modbus-rtu')
    throw new Error(`a paired Modbus unit needs a Modbus profile, and ${name ?? 'none'} is not one`);
  return resolved.profile;
}
