import type { DeviceIdentity, DeviceTool } from '../protocol/frame-schema.ts';
import type { DeviceRegistry } from '../registry/device-registry.ts';
import type { TransportConnector } from '../transport/line-transport.ts';
import { serialConnector } from '../transport/serial-line-transport.ts';
import type { PairedDevice, PairingStore } from './pairing-store.ts';
import { probeDevice } from './probe-device.ts';
import { profileConnector } from '../profiles/profile-connector.ts';
import { resolveProfile } from '../profiles/resolve-profile.ts';

/** What the user is shown before confirming a pairing (or a changed identity). */
export interface PairingCandidate {
  path: string;
  identity: DeviceIdentity;
  tools: DeviceTool[];
  /** Set when re-confirming: the identity that was paired before. */
  previousIdentity?: DeviceIdentity;
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
      if (
        this.options.registry.list().some((device) => device.path === paired.path || device.id === paired.identity.id)
      )
        continue;
      await this.options.registry.attachConnector(this.connector(paired.path, paired.profile), {
        grant: paired.grants,
        alias: paired.alias,
        trustedIdentity: paired.identity,
        knownTools: paired.tools,
        waitOnlineMs: 0,
      });
    }
  }

  /** Pairs the device at `path`; null when the user declines. Throws when the device does not answer. */
  async pair(options: {
    path: string;
    alias?: string;
    profile?: string;
    confirm: ConfirmPairing;
    timeoutMs?: number;
    signal?: AbortSignal;
  }): Promise<PairedDevice | null> {
    const { registry, store } = this.options;
    const attached = registry.list().find((device) => device.path === options.path);
    if (attached) await registry.detach(attached.path);
    const hello = await probeDevice({
      connector: this.connector(options.path, options.profile),
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    });
    const candidate: PairingCandidate = { path: options.path, identity: hello.device, tools: hello.tools };
    if (!(await options.confirm(candidate))) return null;
    const paired: PairedDevice = {
      path: options.path,
      alias: options.alias ?? hello.device.id,
      identity: hello.device,
      tools: hello.tools,
      grants: [],
      pairedAt: (this.options.now ?? Date.now)(),
      confirmedIdentity: true,
      ...(options.profile !== undefined ? { profile: options.profile } : {}),
    };
    store.save(paired);
    await registry.attachConnector(this.connector(paired.path, paired.profile), {
      grant: [],
      alias: paired.alias,
      trustedIdentity: paired.identity,
      knownTools: paired.tools,
      waitOnlineMs: 0,
    });
    return paired;
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
    await this.options.registry.detach(paired?.path ?? deviceId);
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
