import { DevicePairing, type PairingCandidate } from '../../devices/pairing/device-pairing.ts';
import type { PairedDevice, PairingStore } from '../../devices/pairing/pairing-store.ts';
import { checkSerialPort, scanPorts, type SerialPortCheck } from '../../devices/ways-in/serial-ports.ts';
import type { DeviceTool } from '../../devices/protocol/frame-schema.ts';
import { sameIdentity } from '../../devices/protocol/same-identity.ts';
import { declarationHash } from '../../devices/registry/pinned-declaration.ts';
import { BUILTIN_PROFILE_NAMES, resolveDeviceProfile } from '../../devices/ways-in/builtin-profile-formats.ts';
import { z } from 'zod';
import type { WayInOptions } from '../../devices/links/way-in.ts';
import type { DeviceRegistry } from '../../devices/registry/device-registry.ts';
import type { ApiInput, ApiOutput, DeviceAction, DeviceIdentity } from '../contract/api-contract.ts';
import type { PairedDevicesSync } from './paired-devices-sync.ts';

/** A refused device operation, with the status a transport carries (404 unknown, 409 changed meanwhile). */
export class DeviceAdminError extends Error {
  override readonly name = 'DeviceAdminError';
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

/** The parts the operations work on. */
export interface DeviceAdminOptions {
  registry: DeviceRegistry;
  store: PairingStore;
  pairing: DevicePairing;
  sync: PairedDevicesSync;
  /** Where the devices named on the command line sit: not the person's to pair, grant or forget here. */
  commandLineAddresses: ReadonlySet<string>;
  /** How long a probe waits for a hello (default 3000 ms). */
  probeTimeoutMs?: number;
  scan?: typeof scanPorts;
  /** Whether a path is a serial port the API may open (default: `checkSerialPort`). */
  checkPort?: (path: string) => Promise<SerialPortCheck>;
}

/**
 * What the Devices tab does, for every front end: scan, probe, pair, grant, revoke, rename, forget,
 * trust. Every change is written to the store first and then applied to the registry by the sync,
 * the same path a change made by another process takes.
 */
export class DeviceAdmin {
  constructor(private readonly options: DeviceAdminOptions) {}

  async scan(input: ApiInput<'devices/scan'>, signal?: AbortSignal): Promise<ApiOutput<'devices/scan'>> {
    const { candidates, warnings } = await (this.options.scan ?? scanPorts)({
      manualPaths: input.paths ?? [],
      ...(signal ? { signal } : {}),
    });
    const paired = this.options.store.list();
    const attached = this.options.registry.list();
    const found = await this.found(warnings, signal);
    return {
      ports: candidates.map((candidate) => {
        const holder = attached.find(
          (device) => device.path === candidate.path && this.options.commandLineAddresses.has(device.address),
        );
        return {
          ...candidate,
          paired: paired
            .filter((device) => device.path === candidate.path)
            .map((device) => ({ id: device.identity.id, alias: device.alias })),
          ...(holder ? { attachedFromCommandLine: holder.id } : {}),
        };
      }),
      warnings,
      profiles: BUILTIN_PROFILE_NAMES.map((name) => this.profileOption(name)),
      ...(found ? { found } : {}),
    };
  }

  /**
   * What the ways in that look by themselves find (devices behind a broker), with who is paired at
   * each path; undefined when none looks. A way in that cannot look now adds its reason to `warnings`.
   */
  private async found(warnings: string[], signal?: AbortSignal): Promise<ApiOutput<'devices/scan'>['found']> {
    const { registry } = this.options;
    if (!registry.waysIn.some((way) => way.sourceMeanings !== undefined)) return undefined;
    const scanned = await registry
      .scan({ timeoutMs: this.options.probeTimeoutMs ?? 3000, ...(signal ? { signal } : {}) })
      .catch((error: unknown) => {
        warnings.push((error as Error).message);
        return [];
      });
    if (scanned.length === 0 && warnings.length > 0) return undefined;
    const paired = this.options.store.list();
    return scanned.map((device) => ({
      path: device.path,
      source: device.source,
      about: registry.waysIn.find((way) => way.kind === device.wayIn)?.sourceMeanings?.[device.source] ?? device.source,
      id: device.identity.id,
      kind: device.identity.kind,
      model: device.identity.model,
      online: device.online,
      ...(device.needsCode === true ? { needsCode: true } : {}),
      paired: paired
        .filter((candidate) => candidate.path === device.path)
        .map((candidate) => ({ id: candidate.identity.id, alias: candidate.alias })),
    }));
  }

  async probe(input: ApiInput<'devices/probe'>, signal?: AbortSignal): Promise<ApiOutput<'devices/probe'>> {
    await this.checkPlacement(input);
    const live = this.pairedOnline(input);
    const request = {
      path: input.path,
      ...(input.profile !== undefined ? { profile: input.profile } : {}),
      wayInOptions: wayInOptionsOf(input),
      ...(input.code !== undefined ? { code: input.code } : {}),
      timeoutMs: this.options.probeTimeoutMs ?? 3000,
      ...(signal ? { signal } : {}),
    };
    const candidate: PairingCandidate =
      live ??
      (await this.options.pairing.probe(request).catch((error: unknown) => {
        const hint = this.options.pairing.probeHint(request);
        throw new DeviceAdminError(
          400,
          `${input.path} did not say who it is: ${(error as Error).message}.${hint === undefined ? '' : ` ${hint}`}`,
        );
      }));
    const previous = this.options.store.get(candidate.identity.id);
    const holder = this.options.registry.list().find((device) => device.id === candidate.identity.id);
    const conflict =
      holder && previous === undefined
        ? `the device at ${holder.address} already has the id ${candidate.identity.id}; ids must be unique (stop that device, e.g. run without --sim, then pair this one)`
        : undefined;
    return {
      path: input.path,
      identity: candidate.identity,
      actions: actionsOf(candidate.tools),
      declarationHash: declarationHash(candidate.tools, candidate.wiring),
      details: candidate.details ?? [],
      ...(candidate.suggestedRoom !== undefined ? { suggestedRoom: candidate.suggestedRoom } : {}),
      ...(previous ? { previous: { alias: previous.alias, identity: previous.identity, path: previous.path } } : {}),
      ...(conflict ? { conflict } : {}),
    };
  }

  async pair(input: ApiInput<'devices/pair'>, signal?: AbortSignal): Promise<ApiOutput<'devices/pair'>> {
    await this.checkPlacement(input);
    try {
      const paired = await this.options.pairing.pair({
        path: input.path,
        ...(input.alias !== undefined ? { alias: input.alias } : {}),
        ...(input.room !== undefined ? { room: input.room } : {}),
        ...(input.profile !== undefined ? { profile: input.profile } : {}),
        wayInOptions: wayInOptionsOf(input),
        timeoutMs: this.options.probeTimeoutMs ?? 3000,
        ...(signal ? { signal } : {}),
        confirm: (candidate) => {
          // What is paired is what the person was shown: a device that changed meanwhile is shown again.
          if (!sameIdentity(candidate.identity, input.identity))
            throw new DeviceAdminError(
              409,
              `${input.path} now says it is ${describeIdentity(candidate.identity)}, not ${describeIdentity(input.identity)}: look at it again before pairing`,
            );
          if (
            input.declarationHash !== undefined &&
            input.declarationHash !== declarationHash(candidate.tools, candidate.wiring)
          )
            throw new DeviceAdminError(
              409,
              `${input.path} now declares other actions than the ones shown: look at it again before pairing`,
            );
          return true;
        },
      });
      if (!paired) throw new DeviceAdminError(409, 'not paired');
      return {
        deviceId: paired.identity.id,
        alias: paired.alias,
        ...(paired.room !== undefined ? { room: paired.room } : {}),
      };
    } catch (error) {
      if (error instanceof DeviceAdminError) throw error;
      throw new DeviceAdminError(400, `could not pair ${input.path}: ${(error as Error).message}`);
    } finally {
      // Pairing detaches what was at the path before probing: whatever happened, the registry follows the store again.
      this.options.sync.refresh();
    }
  }

  grant(input: ApiInput<'devices/grant'>): ApiOutput<'devices/grant'> {
    return this.changeGrants(input, (deviceId, actions) => this.options.pairing.grant(deviceId, actions));
  }

  revoke(input: ApiInput<'devices/revoke'>): ApiOutput<'devices/revoke'> {
    return this.changeGrants(input, (deviceId, actions) => this.options.pairing.revoke(deviceId, actions));
  }

  rename(input: ApiInput<'devices/rename'>): ApiOutput<'devices/rename'> {
    this.requirePaired(input.deviceId);
    const updated = this.options.pairing.rename(input.deviceId, input.alias);
    this.options.sync.refresh();
    return { deviceId: input.deviceId, alias: updated.alias };
  }

  /** Puts a paired device in a room, or in none (`room` null or absent); answers the room as stored. */
  room(input: ApiInput<'devices/room'>): ApiOutput<'devices/room'> {
    this.requirePaired(input.deviceId);
    const updated = this.options.pairing.setRoom(input.deviceId, input.room ?? undefined);
    this.options.sync.refresh();
    return { deviceId: input.deviceId, room: updated.room ?? '' };
  }

  async forget(input: ApiInput<'devices/forget'>): Promise<ApiOutput<'devices/forget'>> {
    this.requirePaired(input.deviceId);
    const forgotten = await this.options.pairing.forget(input.deviceId);
    this.options.sync.refresh();
    return { forgotten };
  }

  async trust(input: ApiInput<'devices/trust'>): Promise<ApiOutput<'devices/trust'>> {
    this.requirePaired(input.deviceId);
    const entry = this.options.registry.get(input.deviceId);
    if (entry === undefined || entry.session.hello === undefined)
      throw new DeviceAdminError(409, `${input.deviceId} is not connected: its new identity can be trusted once it is`);
    try {
      await this.options.pairing.reconfirm(input.deviceId, (candidate) => {
        if (!sameIdentity(candidate.identity, input.identity))
          throw new DeviceAdminError(
            409,
            `${input.deviceId} now says it is ${describeIdentity(candidate.identity)}, not ${describeIdentity(input.identity)}: look at it again`,
          );
        if (
          input.declarationHash !== undefined &&
          input.declarationHash !== declarationHash(candidate.tools, candidate.wiring)
        )
          throw new DeviceAdminError(
            409,
            `${input.deviceId} now declares other actions than the ones shown: look at it again`,
          );
        return true;
      });
    } catch (error) {
      if (error instanceof DeviceAdminError) throw error;
      // It changed again while the person looked, or went away: nothing was trusted.
      throw new DeviceAdminError(409, `could not trust ${input.deviceId}: ${(error as Error).message}`);
    } finally {
      this.options.sync.refresh();
    }
    return { deviceId: input.identity.id };
  }

  /** The identity a paired device announces now, when it differs from the one trusted, with its actions. */
  identityChange(deviceId: string): { current: DeviceIdentity; actions: DeviceAction[] } | undefined {
    const entry = this.options.registry.get(deviceId);
    const hello = entry?.session.hello;
    if (entry === undefined || hello === undefined || entry.trusted) return undefined;
    return { current: hello.device, actions: actionsOf(hello.tools) };
  }

  /** A device of this host that holds the path and is online: its hello stands in for opening the port twice. */
  private pairedOnline(input: PlacementInput): PairingCandidate | undefined {
    const { path } = input;
    const address = this.addressOf(input);
    const device = this.options.registry
      .list()
      .find((candidate) => candidate.path === path && (address === undefined || candidate.address === address));
    if (device === undefined) return undefined;
    const hello = this.options.registry.get(device.id)?.session.hello;
    if (device.online && hello) return { path, identity: hello.device, tools: hello.tools };
    throw new DeviceAdminError(
      409,
      `${path} belongs to ${device.id} ("${device.alias}"), which is ${device.status}: forget it first to pair another device there`,
    );
  }

  /** A built-in profile as the Add-device form lists it: what it speaks, and the options its way in asks (a JSON schema). */
  private profileOption(name: string): ApiOutput<'devices/scan'>['profiles'][number] {
    const profile = resolveDeviceProfile(name);
    const way = this.options.registry.wayInFor({ profile });
    const asks = Object.keys(way.optionsSchema.shape).length > 0;
    return {
      name,
      protocol: profile.protocol,
      ...(asks ? { options: z.toJSONSchema(way.optionsSchema) as Record<string, unknown> } : {}),
    };
  }

  /** The address a placement with options names (a unit on a bus); undefined without options or when they do not place it. */
  private addressOf(input: PlacementInput): string | undefined {
    const options = wayInOptionsOf(input);
    if (Object.keys(options).length === 0) return undefined;
    try {
      const profile = input.profile === undefined ? undefined : resolveDeviceProfile(input.profile);
      return this.options.registry.placementOf(input.path, { profile, wayInOptions: options }).address;
    } catch {
      // Options that do not place a device are refused by the probe, with the way in's reason.
      return undefined;
    }
  }

  /**
   * A path the API may open, checked before anything opens it: a serial port the system lists, or a
   * running simulator's port (`checkSerialPort`), with a built-in profile if any. Whoever holds the
   * token reaches this; a terminal, a console or a watchdog is refused with what it is. The CLI,
   * where the person at the terminal names the path, may open any pseudo-terminal.
   */
  private async checkPlacement(input: { path: string; profile?: string | undefined }): Promise<void> {
    if (input.profile !== undefined && !BUILTIN_PROFILE_NAMES.includes(input.profile))
      throw new DeviceAdminError(
        400,
        `no built-in profile named '${input.profile}' (built in: ${BUILTIN_PROFILE_NAMES.join(', ')}); a profile file is paired with the CLI: home-agent devices pair PATH --profile FILE`,
      );
    const holder = this.options.registry
      .list()
      .find((device) => device.path === input.path && this.options.commandLineAddresses.has(device.address));
    if (holder)
      throw new DeviceAdminError(
        409,
        `${input.path} is ${holder.id}, named on the command line for this run (all its actions are allowed): it is not paired`,
      );
    // A path a way in names itself (behind a broker) is no file: its way in checks it (only what its scan lists).
    if (this.options.registry.wayInFor({}, input.path).namesItsPaths === true) return;
    const port = await (this.options.checkPort ?? checkSerialPort)(input.path);
    if (!port.ok) throw new DeviceAdminError(400, port.reason);
  }

  /**
   * Grants or revokes (`change`) the actions `input` names — all the device's, or those listed, each
   * one it has — and answers what is granted now.
   */
  private changeGrants(
    input: ApiInput<'devices/grant' | 'devices/revoke'>,
    change: (deviceId: string, actions: readonly string[]) => PairedDevice,
  ): ApiOutput<'devices/grant' | 'devices/revoke'> {
    const paired = this.requirePaired(input.deviceId);
    const actions = input.all === true ? paired.tools.map((tool) => tool.name) : (input.actions ?? []);
    this.requireActions(paired.identity.id, paired.tools, actions);
    const updated = change(input.deviceId, actions);
    this.options.sync.refresh();
    return { deviceId: input.deviceId, granted: updated.grants };
  }

  private requirePaired(deviceId: string) {
    const paired = this.options.store.get(deviceId);
    if (paired !== undefined) return paired;
    const attached = this.options.registry.list().find((device) => device.id === deviceId);
    if (attached)
      throw new DeviceAdminError(
        400,
        `${deviceId} is named on the command line for this run (all its actions are allowed); pair it to choose what the agent may use`,
      );
    throw new DeviceAdminError(404, `${deviceId} is not paired`);
  }

  private requireActions(deviceId: string, tools: readonly DeviceTool[], actions: readonly string[]): void {
    const known = new Set(tools.map((tool) => tool.name));
    const unknown = actions.filter((action) => !known.has(action));
    if (unknown.length > 0)
      throw new DeviceAdminError(
        400,
        `${deviceId} has no action ${unknown.join(', ')} (it has ${[...known].join(', ') || 'none'})`,
      );
  }
}

/** A device's declared tools as the person is shown them. */
export function actionsOf(tools: readonly DeviceTool[]): DeviceAction[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    asksApproval: tool.confirm === true,
    ...(tool.readOnly === true ? { readOnly: true } : {}),
    ...(tool.needsPin === true ? { declaresPin: true } : {}),
    parallelSafe: tool.parallelSafe,
    serial: tool.serial,
  }));
}

function describeIdentity(identity: DeviceIdentity): string {
  return `${identity.id} (${identity.kind}, ${identity.model}, firmware ${identity.firmware})`;
}

/** Where a device is and how it talks, as the window sends it. */
type PlacementInput = Pick<ApiInput<'devices/probe'>, 'path' | 'profile' | 'options' | 'unit'>;

/** The way-in options of a placement: `options`, and `unit` as older windows send it. */
function wayInOptionsOf(input: PlacementInput): WayInOptions {
  return { ...input.options, ...(input.unit !== undefined ? { unit: input.unit } : {}) };
}
