import { ToolError } from '../../core/tools/tool-error.ts';
import type { DeviceIdentity, DeviceTool, EventFrame, HelloResult } from '../protocol/frame-schema.ts';
import type { DeviceProfile } from '../profiles/resolve-profile.ts';
import { sameIdentity } from '../protocol/same-identity.ts';
import {
  compareDeclarations,
  verdictOf,
  type DeclarationComparison,
  type DeclarationDifference,
} from '../protocol/compare-declarations.ts';
import { compareWiring, type LinkWiring } from '../links/link-wiring.ts';
import type { ProfileSource } from '../profiles/resolve-profile.ts';
import type { PinnedDeclaration } from './pinned-declaration.ts';
import type { CallOptions, FrameProblem, LinkDefaults, SessionStatus } from '../links/session-types.ts';
import { Emitter } from '../../core/events/emitter.ts';
import type { TransportConnector } from '../transport/line-transport.ts';
import type { DeviceGrant } from '../links/device-grant.ts';
import { ownPortPlacement, placementConflict, type DeviceLink, type LinkPlacement } from '../links/device-link.ts';
import type {
  ProbeResult,
  RefusedScannedDevice,
  ScannedDevice,
  WayIn,
  WayInConnections,
  WayInOptions,
} from '../links/way-in.ts';
import { checkHello } from '../protocol/check-hello.ts';
import { DEFAULT_DEVICE_EVENTS_PER_SECOND, EventRateLimit } from './event-rate-limit.ts';
import { firstConnectionWaitMs } from './first-connection-wait.ts';

/** How the registry is set up: the ways in it may open, defaults for every link, the event rate, the clock. */
export type DeviceRegistryOptions = LinkDefaults & {
  /** The ways a device may connect, in the order they are asked to claim one (the host passes them in). */
  waysIn?: readonly WayIn[];
  /** Events one device may send per second; the excess is dropped, counted and reported once (default 20). */
  eventsPerSecond?: number;
  /** Milliseconds since the epoch; injectable so tests are deterministic. */
  now?: () => number;
};

/** Which way in reaches a device, and how: named (`wayIn`), or the first way in that claims the profile and options. */
export interface WayInRequest {
  /** The way in's kind (`serial`); absent: the first way in that claims the profile and options. */
  wayIn?: string | undefined;
  /** The profile the device speaks through, read already. */
  profile?: DeviceProfile | undefined;
  /** The way in's options (`{unit: 1}`); default none. */
  wayInOptions?: WayInOptions | undefined;
}

/** A device's latest trouble (a refused hello, a failed connection, an event flood) and when it happened. */
export interface DeviceLastError {
  message: string;
  at: number;
}

/** How a device is attached: its way in (see WayInRequest), and what the person allowed. */
export interface AttachOptions extends WayInRequest {
  /** Actions the agent may use (default none). A device given with --sim/--device gets 'all'. */
  grant?: DeviceGrant;
  alias?: string;
  /** The identity the user confirmed at pairing; default: whatever the first hello says. */
  trustedIdentity?: DeviceIdentity;
  /** Tools remembered from pairing, listed while the device has not said hello yet. */
  knownTools?: DeviceTool[];
  /** How long to wait for the first hello (default 5000 ms); 0 returns at once (needs trustedIdentity). */
  waitOnlineMs?: number;
  signal?: AbortSignal;
  /** For a paired device: the declaration it is held to (see PinOptions). Absent: whatever it declares is used. */
  pin?: PinOptions;
}

/**
 * How a paired device is held to what the person agreed to. A hello that declares anything but
 * more caution (compareDeclarations) leaves it untrusted — not used — until the person trusts it
 * again; a hello that only adds caution is pinned at once.
 */
export interface PinOptions {
  /** The declaration pinned at pairing; absent for a pairing stored before declarations were pinned: pinned at its first hello. */
  declaration?: PinnedDeclaration;
  /** Differences found before attaching (its profile file changed since pairing): untrusted until trusted again. */
  held?: DeclarationDifference[];
  /** The profile text this device's link runs on, pinned with its tools. */
  profile?: ProfileSource;
  /** Called with every declaration pinned by a hello (the first one, or one with more caution), to store it. */
  onPin?: (declaration: PinnedDeclaration) => void;
}

/** A device as the registry lists it. `trusted` is false when its hello no longer matches the confirmed identity. */
export interface DeviceInfo {
  id: string;
  alias: string;
  kind: string;
  model: string;
  firmware: string;
  path: string;
  /** Unique among attached devices: the path, or the path and unit of a shared bus (`/dev/ttyUSB0#3`). */
  address: string;
  status: SessionStatus;
  online: boolean;
  trusted: boolean;
  /** Action names the device declares. */
  tools: string[];
  grant: DeviceGrant;
  /** Its latest trouble since it was attached, if any. */
  lastError?: DeviceLastError;
  /** Events it sent past its rate, dropped (counted since it was attached). */
  eventsDropped: number;
}

/** One attached device: how it is reached and what the user allowed. Read-only outside the registry. */
export interface DeviceEntry {
  readonly path: string;
  readonly address: string;
  /** Its link, whatever way in opened it. */
  readonly session: DeviceLink;
  readonly alias: string;
  readonly grant: DeviceGrant;
  readonly trustedIdentity: DeviceIdentity;
  /**
   * Its actions: as pinned while its live declaration is held, else as declared (never less
   * cautious than pinned), so the approval question always asks what the person agreed it asks.
   */
  readonly tools: DeviceTool[];
  readonly trusted: boolean;
  /** Why it is not trusted (`answers with another identity than the one paired`); absent when it is. */
  readonly untrustedBecause?: string;
  /** How its declaration differs from the pinned one (held differences and stronger ones alike); empty when it does not. */
  readonly differences: DeclarationDifference[];
}

interface MutableEntry {
  placement: LinkPlacement;
  session: DeviceLink;
  alias: string;
  grant: DeviceGrant;
  trustedIdentity: DeviceIdentity | undefined;
  knownTools: DeviceTool[];
  unsubscribe: (() => void)[];
  events: EventRateLimit;
  lastError: DeviceLastError | undefined;
  /** When a call first needed it while it had not been online (the registry's clock): see firstConnectionWaitMs. */
  firstCallAt: number | undefined;
  pin: { declaration: PinnedDeclaration | undefined; held: DeclarationDifference[]; options: PinOptions } | undefined;
  /** The latest comparison of a hello with the pinned declaration (both compared by identity). */
  compared:
    | {
        hello: HelloResult;
        wiring: LinkWiring | undefined;
        declaration: PinnedDeclaration;
        result: DeclarationComparison;
      }
    | undefined;
}

/** A dropped frame or connection problem, with the device it came from. */
export interface DeviceProblem extends FrameProblem {
  deviceId: string;
}

/** A device event with the id of the device that sent it. */
export interface DeviceEvent extends EventFrame {
  deviceId: string;
}

/**
 * The owner of device sessions: attaches ports, keeps grants and the trusted identity of each
 * device, and disposes every session. The devices plugin and display channels read from it.
 */
export class DeviceRegistry {
  private readonly entries: MutableEntry[] = [];
  private readonly changeListeners = new Emitter<void>({ name: 'devices change' });
  private readonly eventListeners = new Emitter<DeviceEvent>({ name: 'device event' });
  private readonly problemListeners = new Emitter<DeviceProblem>({ name: 'device problem' });
  private readonly connections = new Map<string, WayInConnections>();
  private readonly now: () => number;
  private readonly linkDefaults: LinkDefaults;

  constructor(private readonly sessionDefaults: DeviceRegistryOptions = {}) {
    this.now = sessionDefaults.now ?? Date.now;
    const { waysIn: _ways, eventsPerSecond: _rate, now: _now, ...defaults } = sessionDefaults;
    this.linkDefaults = defaults;
  }

  /** The ways in this registry opens, in the order they claim devices. */
  get waysIn(): readonly WayIn[] {
    return this.sessionDefaults.waysIn ?? [];
  }

  /**
   * The way in a request goes through: the one it names, else the first that claims its path (when
   * given), profile and options. Throws naming the ways in there are when none does.
   */
  wayInFor(request: WayInRequest, path?: string): WayIn {
    const options = request.wayInOptions ?? {};
    const way = request.wayIn
      ? this.waysIn.find((candidate) => candidate.kind === request.wayIn)
      : this.waysIn.find((candidate) => candidate.claims({ path, profile: request.profile, options }));
    if (way === undefined)
      throw new Error(
        request.wayIn
          ? `no way in named ${request.wayIn} (ways in: ${this.waysIn.map((candidate) => candidate.kind).join(', ') || 'none'})`
          : `no way in takes this device (ways in: ${this.waysIn.map((candidate) => candidate.kind).join(', ') || 'none'})`,
      );
    return way;
  }

  /** Where the device a request names sits (its path, address and lane). */
  placementOf(path: string, request: WayInRequest): LinkPlacement {
    return this.wayInFor(request, path).placement(path, request.wayInOptions ?? {});
  }

  /**
   * Attaches the device at `path` through its way in (see wayInFor): a port of its own, a unit on a
   * shared bus, … Resolves once it is online (see waitOnlineMs).
   */
  attach(path: string, options: AttachOptions = {}): Promise<DeviceInfo> {
    let link: DeviceLink;
    let placement: LinkPlacement;
    try {
      const way = this.wayInFor(options, path);
      const wayInOptions = options.wayInOptions ?? {};
      placement = way.placement(path, wayInOptions);
      const conflict = placementConflict(placement, this.placements());
      if (conflict) throw new Error(conflict);
      link = this.connectionsOf(way).open({
        path,
        ...(options.profile ? { profile: options.profile } : {}),
        options: wayInOptions,
      });
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return this.attachLink(link, placement, options);
  }

  /** Attaches a device over any line transport (e.g. an in-process simulated device), through the first way in that runs on one. */
  attachConnector(connector: TransportConnector, options: AttachOptions = {}): Promise<DeviceInfo> {
    const placement = ownPortPlacement(connector.label);
    const conflict = placementConflict(placement, this.placements());
    if (conflict) return Promise.reject(new Error(conflict));
    const opener = this.waysIn
      .map((way) => this.connectionsOf(way).openConnector?.bind(undefined))
      .find((open) => open !== undefined);
    if (opener === undefined) return Promise.reject(new Error('no way in runs on a line transport'));
    return this.attachLink(opener(connector), placement, options);
  }

  /**
   * Asks the device at `path` who it is and what it offers, through its way in, granting nothing
   * (pairing shows it first). A unit of a shared bus is read through the bus of the units already
   * attached, so the port is never opened twice; a device that needs its port to itself must not be
   * attached (detach it first). Rejects `device_offline` when it does not answer in time.
   */
  async probe(
    path: string,
    request: WayInRequest,
    options: {
      timeoutMs: number;
      signal?: AbortSignal | undefined;
      pairingCode?: string | undefined;
      /** Every stored pairing (path, way in, kept options): those of the same way in reach its probe. */
      paired?: readonly { path: string; wayIn: string; options?: WayInOptions | undefined }[];
    },
  ): Promise<ProbeResult & { wayIn: string }> {
    const way = this.wayInFor(request, path);
    const wayInOptions = request.wayInOptions ?? {};
    const conflict = placementConflict(way.placement(path, wayInOptions), this.placements());
    if (conflict) throw new Error(conflict);
    const probed = await this.connectionsOf(way).probe(
      {
        path,
        ...(request.profile ? { profile: request.profile } : {}),
        options: wayInOptions,
        ...(options.pairingCode !== undefined ? { pairingCode: options.pairingCode } : {}),
        pairedBeside: (options.paired ?? [])
          .filter((other) => other.wayIn === way.kind && other.path !== path)
          .map((other) => ({ path: other.path, options: other.options ?? {} })),
      },
      { timeoutMs: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) },
    );
    return { ...probed, wayIn: way.kind };
  }

  /**
   * What the ways in that look for devices by themselves (behind a broker) find now, each device with
   * its way in, granting nothing. Rejects with the first way in that cannot look, naming why.
   */
  async scan(options: { timeoutMs: number; signal?: AbortSignal }): Promise<(ScannedDevice & { wayIn: string })[]> {
    const found: (ScannedDevice & { wayIn: string })[] = [];
    for (const way of this.waysIn) {
      const connections = this.connectionsOf(way);
      if (connections.scan === undefined) continue;
      for (const device of await connections.scan(options)) found.push({ ...device, wayIn: way.kind });
    }
    return found;
  }

  /** What the ways in that look by themselves saw announced but do not offer, and why (read after `scan`). */
  refusedInScan(): (RefusedScannedDevice & { wayIn: string })[] {
    return this.waysIn.flatMap((way) =>
      (this.connections.get(way.kind)?.refused?.() ?? []).map((refused) => ({ ...refused, wayIn: way.kind })),
    );
  }

  /**
   * Attaches a device reached by any link at `placement`; the registry owns the link from here
   * (it is disposed on failure, detach and dispose). Two devices may share a path only as units of
   * one shared lane (a bus).
   */
  async attachLink(session: DeviceLink, placement: LinkPlacement, options: AttachOptions = {}): Promise<DeviceInfo> {
    const conflict = placementConflict(placement, this.placements());
    const waitMs = options.waitOnlineMs ?? 5000;
    // Ids are unique across every way in: a second device with an id already attached is refused, never shadowed.
    const taken =
      options.trustedIdentity &&
      this.entries.find((other) => other.trustedIdentity?.id === options.trustedIdentity?.id);
    if (conflict || taken || (waitMs === 0 && options.trustedIdentity === undefined)) {
      await session.dispose();
      throw new Error(
        conflict ??
          (taken
            ? `device id ${options.trustedIdentity?.id} is already attached at ${taken.placement.address}`
            : 'attaching without waiting needs a trusted identity'),
      );
    }
    const entry: MutableEntry = {
      placement,
      session,
      alias: options.alias ?? '',
      grant: options.grant ?? [],
      trustedIdentity: options.trustedIdentity,
      knownTools: options.knownTools ?? [],
      unsubscribe: [],
      events: new EventRateLimit({
        perSecond: this.sessionDefaults.eventsPerSecond ?? DEFAULT_DEVICE_EVENTS_PER_SECOND,
        now: this.now,
      }),
      lastError: undefined,
      firstCallAt: undefined,
      pin: options.pin
        ? { declaration: options.pin.declaration, held: options.pin.held ?? [], options: options.pin }
        : undefined,
      compared: undefined,
    };
    session.start();
    session.grantChanged?.(entry.grant);
    if (waitMs > 0) {
      try {
        const hello = await session.whenOnline({ timeoutMs: waitMs, signal: options.signal });
        // Sessions check their hello themselves; other links (a unit's profile) are checked here.
        const checked = checkHello(hello, this.sessionDefaults.toolNameOwner);
        if (!checked.ok) throw new Error(`${session.label}: hello refused: ${checked.reason}`);
        entry.trustedIdentity ??= hello.device;
        const clash = this.entries.find((other) => other.trustedIdentity?.id === entry.trustedIdentity?.id);
        if (clash) throw new Error(`device id ${hello.device.id} is already attached at ${clash.placement.address}`);
      } catch (error) {
        await session.dispose();
        throw error;
      }
    }
    entry.unsubscribe.push(
      session.onStatus((status) => {
        // Every hello brings the link online: it is compared with what was pinned before anything reads it.
        if (status === 'online') this.pinIfDue(entry);
        this.changeListeners.emit();
      }),
      session.onEvent((event) => this.admitEvent(entry, event)),
      session.onProblem((problem) => this.reportProblem(entry, problem)),
    );
    this.entries.push(entry);
    this.pinIfDue(entry);
    this.changeListeners.emit(undefined);
    return this.info(entry);
  }

  /**
   * Detaches a device by id, address, or path (a path only when one device is there: the units of
   * a bus share theirs) and closes its link.
   */
  async detach(idOrPath: string): Promise<void> {
    let index = this.entries.findIndex(
      (entry) => entry.trustedIdentity?.id === idOrPath || entry.placement.address === idOrPath,
    );
    if (index === -1) {
      const onPath = this.entries.filter((entry) => entry.placement.path === idOrPath);
      if (onPath.length > 1)
        throw new Error(`${onPath.length} devices share ${idOrPath}: detach one by its id or address`);
      index = onPath.length === 1 ? this.entries.indexOf(onPath[0]!) : -1;
    }
    if (index === -1) return;
    const [entry] = this.entries.splice(index, 1);
    for (const unsubscribe of entry!.unsubscribe) unsubscribe();
    await entry!.session.dispose();
    this.changeListeners.emit(undefined);
  }

  /** Every attached device, sorted by id. */
  list(): DeviceInfo[] {
    return this.entries.map((entry) => this.info(entry)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** The entry of a device by its trusted id. */
  get(id: string): DeviceEntry | undefined {
    const entry = this.entries.find((candidate) => candidate.trustedIdentity?.id === id);
    return entry && this.view(entry);
  }

  /** Every entry with a trusted identity, sorted by id. */
  entriesView(): DeviceEntry[] {
    return this.entries
      .filter((entry) => entry.trustedIdentity !== undefined)
      .map((entry) => this.view(entry))
      .sort((a, b) =>
        a.trustedIdentity.id < b.trustedIdentity.id ? -1 : a.trustedIdentity.id > b.trustedIdentity.id ? 1 : 0,
      );
  }

  /** Replaces what the agent may use on a device. */
  setGrant(id: string, grant: DeviceGrant): void {
    const entry = this.mutable(id);
    entry.grant = grant;
    entry.session.grantChanged?.(grant);
    this.changeListeners.emit(undefined);
  }

  /** Renames a device (the name the person and the model see). */
  setAlias(id: string, alias: string): void {
    this.mutable(id).alias = alias;
    this.changeListeners.emit();
  }

  /**
   * The user re-confirmed a device whose identity or declaration changed: trust what it says now,
   * and pin what it declares now. Answers the declaration pinned (undefined for a device not held to one).
   */
  trustCurrentIdentity(id: string): PinnedDeclaration | undefined {
    const entry = this.mutable(id);
    const hello = entry.session.hello;
    if (hello === undefined) throw new Error(`${id} has not said hello`);
    entry.trustedIdentity = hello.device;
    if (entry.pin) {
      entry.pin.held = [];
      entry.pin.declaration = this.declarationOf(entry, hello);
    }
    this.changeListeners.emit(undefined);
    return entry.pin?.declaration;
  }

  /** The declaration a device is held to now (pinned at pairing, by a hello, or by trust); undefined when none. */
  pinnedDeclaration(id: string): PinnedDeclaration | undefined {
    return this.mutable(id).pin?.declaration;
  }

  /**
   * Holds a device to a declaration pinned elsewhere (another process trusted what it declares
   * now). A device held for its profile file is released when that declaration pins the content
   * its link runs on.
   */
  setPinnedDeclaration(id: string, declaration: PinnedDeclaration): void {
    const entry = this.mutable(id);
    if (entry.pin === undefined) throw new Error(`${id} is not held to a pinned declaration`);
    entry.pin.declaration = declaration;
    const runsOn = entry.pin.options.profile;
    if (runsOn !== undefined && declaration.profile?.sha256 === runsOn.sha256) entry.pin.held = [];
    this.changeListeners.emit(undefined);
  }

  /**
   * Runs one action on a device (no grant check: callers authorise first). A device still making
   * its first connection is waited for (see firstConnectionWaitMs) and its identity compared with the
   * trusted one before anything is sent: the gate could not compare it yet, and must not fail open.
   * One that is still not online then ends `device_offline` before anything was sent.
   */
  async call(id: string, action: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<unknown> {
    const entry = this.entries.find((candidate) => candidate.trustedIdentity?.id === id);
    if (entry === undefined)
      throw new ToolError({ reason: 'unauthorized', field: 'device_id', detail: `unknown device ${id}` });
    if (entry.session.status === 'connecting') {
      await this.waitForFirstConnection(entry, options.signal);
      // Said to the model and the person: a refused hello is not a device that is merely late.
      const why = entry.lastError ? ` (${entry.lastError.message})` : '';
      if (entry.session.status === 'connecting')
        throw new ToolError({
          reason: 'device_offline',
          detail: why
            ? `${id} has not come online yet${why}: nothing was sent to it`
            : `the device ${id} is still connecting: nothing was sent to it`,
          hint: 'retry once the device is back',
        });
    }
    const view = this.view(entry);
    if (!view.trusted)
      throw new ToolError({
        reason: 'unauthorized',
        field: 'device_id',
        detail: `${id} ${view.untrustedBecause}`,
        hint: 'ask the user to re-confirm the device',
      });
    return entry.session.call(action, args, options);
  }

  /**
   * Waits for a device still making its first connection to come online (see firstConnectionWaitMs;
   * a device with a connection problem already, such as a held port, is `failed`). A hello refused
   * meanwhile ends the wait at once (whenOnline says so). Resolves either way: the caller reads the status.
   */
  private async waitForFirstConnection(entry: MutableEntry, signal?: AbortSignal): Promise<void> {
    const now = this.now();
    entry.firstCallAt ??= now;
    const timeoutMs = firstConnectionWaitMs({
      firstCallAt: entry.firstCallAt,
      now,
      helloTimeoutMs: this.sessionDefaults.helloTimeoutMs ?? 2000,
      failed: entry.lastError !== undefined,
    });
    await entry.session.whenOnline({ timeoutMs, ...(signal ? { signal } : {}) }).then(
      () => undefined,
      // Not online in time, stopped, or refused: the status and lastError say which.
      () => undefined,
    );
  }

  /** Called on any change: attach, detach, status, grant, trust. */
  onChange(listener: () => void): () => void {
    return this.changeListeners.subscribe(listener);
  }

  onEvent(listener: (event: DeviceEvent) => void): () => void {
    return this.eventListeners.subscribe(listener);
  }

  /** Frames a device sent that were dropped (not JSON, not a frame, oversized) and connection trouble. */
  onProblem(listener: (problem: DeviceProblem) => void): () => void {
    return this.problemListeners.subscribe(listener);
  }

  /** Closes every session. */
  async dispose(): Promise<void> {
    const entries = this.entries.splice(0);
    for (const entry of entries) for (const unsubscribe of entry.unsubscribe) unsubscribe();
    await Promise.all(entries.map((entry) => entry.session.dispose()));
    const connections = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(connections.map((connection) => connection.dispose?.()));
    this.changeListeners.clear();
    this.eventListeners.clear();
    this.problemListeners.clear();
  }

  /**
   * Passes a device's event on while it keeps to its rate. The excess is dropped and counted; the
   * first drop is reported once (a flood of 50,000 events is one log line, not 50,000 lines and
   * broadcasts to every web client).
   */
  private admitEvent(entry: MutableEntry, event: EventFrame): void {
    const deviceId = entry.trustedIdentity?.id ?? entry.placement.address;
    if (entry.events.take()) {
      this.eventListeners.emit({ ...event, deviceId });
      return;
    }
    if (entry.events.dropped === 1) {
      const rate = this.sessionDefaults.eventsPerSecond ?? DEFAULT_DEVICE_EVENTS_PER_SECOND;
      this.reportProblem(entry, {
        problem: 'event_flood',
        detail: `it sends events faster than ${rate} a second: the excess is dropped and counted (devices list shows how many), and not reported again`,
      });
    }
  }

  private reportProblem(entry: MutableEntry, problem: FrameProblem): void {
    if (problem.problem === 'connection' || problem.problem === 'hello_refused' || problem.problem === 'event_flood')
      entry.lastError = { message: problem.detail, at: this.now() };
    this.problemListeners.emit({ ...problem, deviceId: entry.trustedIdentity?.id ?? entry.placement.address });
  }

  private placements(): LinkPlacement[] {
    return this.entries.map((entry) => entry.placement);
  }

  /** A way in's links for this registry, made at first use (they share what must be shared: a bus per port). */
  private connectionsOf(way: WayIn): WayInConnections {
    let connections = this.connections.get(way.kind);
    if (connections === undefined) {
      connections = way.connect(this.linkDefaults);
      this.connections.set(way.kind, connections);
    }
    return connections;
  }

  private mutable(id: string): MutableEntry {
    const entry = this.entries.find((candidate) => candidate.trustedIdentity?.id === id);
    if (entry === undefined) throw new Error(`no device ${id}`);
    return entry;
  }

  private view(entry: MutableEntry): DeviceEntry {
    const trustedIdentity = entry.trustedIdentity!;
    const hello = entry.session.hello;
    const sameDevice = hello === undefined || sameIdentity(hello.device, trustedIdentity);
    const comparison = this.comparisonOf(entry);
    const held = entry.pin?.held ?? [];
    // A profile device's hello comes from its profile: its differences were found before attaching too.
    const differences = [...held, ...(comparison?.differences ?? [])].filter(
      (difference, index, all) => all.findIndex((other) => other.detail === difference.detail) === index,
    );
    const holds = held.length > 0 || comparison?.verdict === 'changed';
    const pinnedTools = entry.pin?.declaration?.tools;
    const untrustedBecause = !sameDevice
      ? 'answers with another identity than the one paired'
      : holds
        ? `declares other actions than the ones it was paired with (${differences
            .filter((difference) => !difference.stronger)
            .map((difference) => difference.detail)
            .join('; ')})`
        : undefined;
    return {
      path: entry.placement.path,
      address: entry.placement.address,
      session: entry.session,
      alias: entry.alias,
      grant: entry.grant,
      trustedIdentity,
      // Held, or not online yet: what was pinned. Otherwise the live declaration, never less cautious than the pinned one.
      tools:
        pinnedTools !== undefined && (holds || hello === undefined) ? pinnedTools : (hello?.tools ?? entry.knownTools),
      trusted: untrustedBecause === undefined,
      ...(untrustedBecause !== undefined ? { untrustedBecause } : {}),
      differences,
    };
  }

  /**
   * The device's hello and wiring compared with its pinned declaration; undefined when either is
   * missing. Read at every look (a call's included), so a wiring its way in changed holds it at once.
   */
  private comparisonOf(entry: MutableEntry): DeclarationComparison | undefined {
    const hello = entry.session.hello;
    const wiring = entry.session.wiring;
    const declaration = entry.pin?.declaration;
    if (hello === undefined || declaration === undefined) return undefined;
    const cached = entry.compared;
    if (cached?.hello === hello && cached.wiring === wiring && cached.declaration === declaration) return cached.result;
    const tools = compareDeclarations(declaration.tools, hello.tools);
    const differences = [...tools.differences, ...compareWiring(declaration.wiring, wiring)];
    const result = { verdict: verdictOf(differences), differences };
    entry.compared = { hello, wiring, declaration, result };
    return result;
  }

  /**
   * Pins what a paired device declares when that is due: at its first hello when it was paired before
   * declarations were pinned, and when a hello only adds caution. Never for a device that answers as
   * another or whose declaration is held: that waits for the person.
   */
  private pinIfDue(entry: MutableEntry): void {
    const { pin, trustedIdentity } = entry;
    const hello = entry.session.hello;
    if (pin === undefined || hello === undefined || trustedIdentity === undefined) return;
    if (!sameIdentity(hello.device, trustedIdentity) || pin.held.length > 0) return;
    const verdict = this.comparisonOf(entry)?.verdict;
    // A declaration pinned before wirings were: its wiring is pinned at the first look, as its tools were.
    const wiringDue = pin.declaration?.wiring === undefined && entry.session.wiring !== undefined && verdict === 'same';
    if (pin.declaration !== undefined && verdict !== 'stronger' && !wiringDue) return;
    pin.declaration = this.declarationOf(entry, hello);
    try {
      pin.options.onPin?.(pin.declaration);
    } catch (error) {
      // Held to it for this run all the same; the next start compares with what the store kept.
      this.reportProblem(entry, {
        problem: 'connection',
        detail: `could not store what it declares: ${(error as Error).message}`,
      });
    }
  }

  private declarationOf(entry: MutableEntry, hello: HelloResult): PinnedDeclaration {
    const profile = entry.pin?.options.profile;
    const wiring = entry.session.wiring;
    return { tools: hello.tools, ...(profile ? { profile } : {}), ...(wiring ? { wiring } : {}) };
  }

  private info(entry: MutableEntry): DeviceInfo {
    const identity = entry.trustedIdentity ?? entry.session.hello?.device;
    const view = entry.trustedIdentity ? this.view(entry) : undefined;
    return {
      id: identity?.id ?? entry.placement.address,
      alias: entry.alias || identity?.id || entry.placement.address,
      kind: identity?.kind ?? 'unknown',
      model: identity?.model ?? '',
      firmware: identity?.firmware ?? '',
      path: entry.placement.path,
      address: entry.placement.address,
      status: entry.session.status,
      online: entry.session.status === 'online',
      trusted: view?.trusted ?? false,
      tools: (view?.tools ?? entry.knownTools).map((tool) => tool.name),
      grant: entry.grant,
      ...(entry.lastError ? { lastError: entry.lastError } : {}),
      eventsDropped: entry.events.dropped,
    };
  }
}
