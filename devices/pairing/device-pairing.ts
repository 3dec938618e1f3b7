import { canonicalJson } from '../../core/agent/canonical-json.ts';
import type { WayInOptions } from '../links/way-in.ts';
import { sameWiring, wiringLines, type LinkWiring } from '../links/link-wiring.ts';
import type { DeclarationDifference } from '../protocol/compare-declarations.ts';
import type { DeviceIdentity, DeviceTool, HelloResult } from '../protocol/frame-schema.ts';
import type { DeviceRegistry, PinOptions, WayInRequest } from '../registry/device-registry.ts';
import type { PinnedDeclaration } from '../registry/pinned-declaration.ts';
import { compareProfileSources, declaredTools } from './compare-profile-sources.ts';
import { serialLinkOf } from '../discovery/follow-moved-device.ts';
import type { PairedDevice, PairingStore } from './pairing-store.ts';
import type { DeviceProfile } from '../profiles/resolve-profile.ts';
import { resolveDeviceProfile } from '../ways-in/builtin-profile-formats.ts';

/** What the user is shown before confirming a pairing (or a changed identity). */
export interface PairingCandidate {
  path: string;
  identity: DeviceIdentity;
  tools: DeviceTool[];
  /** Set when re-confirming: the identity that was paired before. */
  previousIdentity?: DeviceIdentity;
  /** Set when re-confirming: how what it declares differs from what was pinned (which action, which flag, which schema). */
  differences?: DeclarationDifference[];
  /**
   * More to show: for a unit of a bus its unit, bus settings and profile, and what it reads now; for a
   * device with a wiring, each of its fields (`command topic: …`), as pinned.
   */
  details?: string[];
  /** Where its commands go and what they send, when its way in says it: pinned with its tools. */
  wiring?: LinkWiring;
  /** A room its source suggests (Home Assistant's `suggested_area`): kept only when the person confirms it. */
  suggestedRoom?: string;
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
      now?: () => number;
    },
  ) {}

  /** Attaches every paired device (offline ones too, listed with their remembered tools). */
  async attachPaired(): Promise<void> {
    for (const paired of this.options.store.list()) {
      const address = this.addressOf(paired);
      if (this.options.registry.list().some((device) => device.address === address || device.id === paired.identity.id))
        continue;
      await this.attach(paired);
    }
  }

  /**
   * Attaches one paired device as stored (grants, alias, trusted identity, remembered tools, the
   * declaration it is held to) without waiting for it: it is in the registry when this returns,
   * before the promise settles. A profile file is read again (`loaded`: as pairing just read it);
   * content that changed since it was pinned, other than in more caution, holds the device until
   * the person trusts it again.
   */
  attach(paired: PairedDevice, loaded?: DeviceProfile): Promise<unknown> {
    const profile = loaded ?? (paired.profile === undefined ? undefined : resolveDeviceProfile(paired.profile));
    const remembered = {
      grant: paired.grants,
      alias: paired.alias,
      trustedIdentity: paired.identity,
      knownTools: paired.tools,
      waitOnlineMs: 0,
      pin: this.pinOptions(paired, profile),
    };
    return this.options.registry.attach(paired.path, { ...remembered, ...wayInRequest(paired, profile) });
  }

  /**
   * Pairs the device at `path` through its way in (named, or the first that claims its profile and
   * options: a unit of a bus needs its options); null when the user declines. Throws when
   * the device does not answer.
   */
  async pair(
    options: PairingRequest & {
      alias?: string;
      room?: string;
      /** No `room` given: the one its source suggests, shown to the person who confirms (the terminal). */
      acceptSuggestedRoom?: boolean;
      confirm: ConfirmPairing;
    },
  ): Promise<PairedDevice | null> {
    // Read once: what is shown, pinned and attached is this one reading of a profile file.
    const resolved = options.profile === undefined ? undefined : resolveDeviceProfile(options.profile);
    const { registry } = this.options;
    const request = requestOf(options, resolved);
    // Whatever holds this place is let go: a device that needs its port to itself is probed on it.
    const address = registry.placementOf(options.path, request).address;
    if (registry.list().some((device) => device.address === address)) await registry.detach(address);
    const candidate = await this.probeWith(options, request);
    if (!(await options.confirm(candidate))) return null;
    return this.keep(candidate, options, resolved);
  }

  /**
   * Asks the device at `path` who it is, pairing nothing, through its way in: a port of its own is
   * opened just long enough for its hello (the caller makes sure nothing holds it); a unit of a bus
   * is read through the registry's bus. Throws when it does not answer.
   */
  /** What to check when the device at `path` does not say who it is, as its way in advises; undefined when it has no advice. */
  probeHint(options: PairingRequest): string | undefined {
    try {
      const resolved = options.profile === undefined ? undefined : resolveDeviceProfile(options.profile);
      return this.options.registry.wayInFor(requestOf(options, resolved), options.path).probeHint;
    } catch {
      return undefined;
    }
  }

  async probe(options: PairingRequest): Promise<PairingCandidate & { wayIn: string; wayInOptions: WayInOptions }> {
    const resolved = options.profile === undefined ? undefined : resolveDeviceProfile(options.profile);
    return this.probeWith(options, requestOf(options, resolved));
  }

  private async probeWith(
    options: PairingRequest,
    request: WayInRequest,
  ): Promise<PairingCandidate & { wayIn: string; wayInOptions: WayInOptions }> {
    const probed = await this.options.registry.probe(options.path, request, {
      timeoutMs: options.timeoutMs ?? 3000,
      signal: options.signal,
      pairingCode: options.code,
      paired: this.options.store.list(),
    });
    // The wiring is shown as lines of the details, so every front end that shows those shows what is pinned.
    const details = [...probed.details, ...wiringLines(probed.wiring)];
    return {
      path: options.path,
      identity: probed.hello.device,
      tools: probed.hello.tools,
      ...(details.length > 0 ? { details } : {}),
      ...(probed.wiring ? { wiring: probed.wiring } : {}),
      ...(probed.suggestedRoom !== undefined ? { suggestedRoom: probed.suggestedRoom } : {}),
      wayIn: probed.wayIn,
      wayInOptions: probed.options,
    };
  }

  /** Renames a paired device (what the person and the model call it). */
  rename(deviceId: string, alias: string): PairedDevice {
    const paired = this.require(deviceId);
    const updated = { ...paired, alias };
    this.options.store.save(updated);
    if (this.options.registry.get(deviceId)) this.options.registry.setAlias(deviceId, alias);
    return updated;
  }

  /** Puts a paired device in a room (as the home already spells it), or in none (`room` undefined). */
  setRoom(deviceId: string, room: string | undefined): PairedDevice {
    const { room: _previous, ...paired } = this.require(deviceId);
    this.options.store.save(room === undefined ? paired : { ...paired, room });
    return this.require(deviceId);
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
    // A unit of a bus shares its path with the other units: only its own address is its.
    const where = paired && this.addressOf(paired);
    await this.options.registry.detach(where ?? deviceId);
    return this.options.store.forget(deviceId);
  }

  /**
   * Shows a device whose identity or declaration changed since pairing, with what differs; on
   * confirmation what it says now is trusted, pinned and stored (its grants stay). A device that
   * changes again while the person looks is refused: what is trusted is what was shown.
   */
  async reconfirm(deviceId: string, confirm: ConfirmPairing): Promise<boolean> {
    const paired = this.require(deviceId);
    const { registry } = this.options;
    const entry = registry.get(deviceId);
    const hello = entry?.session.hello;
    if (entry === undefined || hello === undefined) throw new Error(`${deviceId} is not connected`);
    if (entry.trusted) return true;
    const wiring = entry.session.wiring;
    const accepted = await confirm({
      path: paired.path,
      identity: hello.device,
      tools: hello.tools,
      previousIdentity: paired.identity,
      ...(entry.differences.length > 0 ? { differences: entry.differences } : {}),
      ...(wiring ? { wiring, details: wiringLines(wiring) } : {}),
    });
    if (!accepted) return false;
    const session = registry.get(deviceId)?.session;
    const now = session?.hello;
    if (now === undefined || !sameHello(now, hello) || !sameWiring(session?.wiring, wiring))
      throw new Error(`${deviceId} changed what it says while you looked: look at it again before trusting it`);
    const pinned = registry.trustCurrentIdentity(deviceId);
    if (hello.device.id !== deviceId) this.options.store.forget(deviceId);
    this.options.store.save({
      ...paired,
      identity: hello.device,
      tools: hello.tools,
      confirmedIdentity: true,
      ...(pinned ? { pinned } : {}),
    });
    return true;
  }

  /**
   * Stores the device the person confirmed, with no grants and what it declared pinned (its tools;
   * a profile file's content as read for the probe), replacing whatever was stored under its id,
   * and attaches it as stored: the same record the next start attaches (`attach`). The id it
   * answers with must be free (`makeRoomFor`).
   */
  private async keep(
    candidate: PairingCandidate & { wayIn: string; wayInOptions: WayInOptions },
    options: { alias?: string; room?: string; acceptSuggestedRoom?: boolean; profile?: string },
    profile: DeviceProfile | undefined,
  ): Promise<PairedDevice> {
    const paired: PairedDevice = {
      path: candidate.path,
      alias: options.alias ?? candidate.identity.id,
      ...roomOf(options, candidate),
      identity: candidate.identity,
      tools: candidate.tools,
      pinned: {
        tools: candidate.tools,
        ...(profile?.source ? { profile: profile.source } : {}),
        ...(candidate.wiring ? { wiring: candidate.wiring } : {}),
      },
      grants: [],
      pairedAt: (this.options.now ?? Date.now)(),
      confirmedIdentity: true,
      ...(options.profile !== undefined ? { profile: options.profile } : {}),
      wayIn: candidate.wayIn,
      ...(Object.keys(candidate.wayInOptions).length > 0 ? { options: candidate.wayInOptions } : {}),
    };
    // Its adapter's USB serial number, so the host can follow it to another tty without opening one.
    const serialLink = await serialLinkOf(candidate.path);
    if (serialLink !== undefined) paired.serialLink = serialLink;
    await this.makeRoomFor(paired.identity.id, this.addressOf(paired));
    this.options.store.save(paired, { anew: true });
    await this.attach(paired, profile);
    // As stored: a room in the spelling the home already uses.
    return this.options.store.get(paired.identity.id) ?? paired;
  }

  /**
   * How a paired device is held to its pinned declaration. A profile file whose content changed
   * other than in more caution is held at once (its differences); one that only adds caution is
   * pinned at once, before any hello, so the first call already asks. A declaration pinned by a
   * hello (the first after pinning began, or one with more caution) is written to the store.
   */
  private pinOptions(paired: PairedDevice, profile: DeviceProfile | undefined): PinOptions {
    const pinnedProfile = paired.pinned?.profile;
    const comparison =
      pinnedProfile !== undefined && profile?.source !== undefined
        ? compareProfileSources({ pinned: pinnedProfile, current: profile })
        : undefined;
    let declaration = paired.pinned;
    if (comparison?.verdict === 'stronger' && profile?.source !== undefined) {
      declaration = { tools: declaredTools(profile), profile: profile.source };
      this.storePin(paired.identity, declaration);
    }
    return {
      ...(declaration ? { declaration } : {}),
      ...(comparison?.verdict === 'changed' ? { held: comparison.differences } : {}),
      ...(profile?.source ? { profile: profile.source } : {}),
      onPin: (pinned) => this.storePin(paired.identity, pinned),
    };
  }

  /** Writes a declaration a hello pinned to the device's record, if it is still paired as that identity. */
  private storePin(identity: DeviceIdentity, pinned: PinnedDeclaration): void {
    const record = this.options.store.get(identity.id);
    if (record === undefined || canonicalJson(record.identity) !== canonicalJson(identity)) return;
    this.options.store.save({ ...record, pinned });
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

  /** Where a paired device sits among attached ones: its path, or its path and unit on a bus. */
  addressOf(paired: PairedDevice): string {
    return this.options.registry.placementOf(paired.path, { wayIn: paired.wayIn, wayInOptions: paired.options ?? {} })
      .address;
  }
}

/** What pairing or probing a device names: its path, profile (builtin name or file), way in and options. */
export interface PairingRequest {
  path: string;
  profile?: string;
  /** The way in's kind; absent: the first way in that claims the profile and options. */
  wayIn?: string;
  /** The way in's options, checked (`{unit: 1, baud: 9600}`). */
  wayInOptions?: WayInOptions;
  /** A one-time pairing code the device asks for (`--code CODE`): passed to the probe, never stored. */
  code?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

function requestOf(options: PairingRequest, profile: DeviceProfile | undefined): WayInRequest {
  return { wayIn: options.wayIn, profile, wayInOptions: options.wayInOptions ?? {} };
}

/** How a stored pairing is reached: its way in, its profile as read now, its options. */
function wayInRequest(paired: PairedDevice, profile: DeviceProfile | undefined): WayInRequest {
  return { wayIn: paired.wayIn, profile, wayInOptions: paired.options ?? {} };
}

/** Whether two hellos say the same: identity, tools and flags (key order aside). */
function sameHello(a: HelloResult, b: HelloResult): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** The room a new pairing keeps: the one given, else the suggested one when the person confirmed it shown; none otherwise. */
function roomOf(
  options: { room?: string; acceptSuggestedRoom?: boolean },
  candidate: { suggestedRoom?: string },
): { room?: string } {
  const room = options.room ?? (options.acceptSuggestedRoom ? candidate.suggestedRoom : undefined);
  return room !== undefined ? { room } : {};
}
