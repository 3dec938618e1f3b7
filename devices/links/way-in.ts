import type { z } from 'zod';
import type { DeviceIdentity, HelloResult } from '../protocol/frame-schema.ts';
import type { DeviceProfile } from '../profiles/resolve-profile.ts';
import type { TransportConnector } from '../transport/line-transport.ts';
import type { DeviceLink, LinkPlacement } from './device-link.ts';
import type { LinkDefaults } from './session-types.ts';
import type { LinkWiring } from './link-wiring.ts';

/** A way in's options: flat keys a person types as `k=v` (`unit=1`), checked by its `optionsSchema`. */
export type WayInOptions = Record<string, unknown>;

/** One device to reach: where it is, the profile it speaks through (read already), and its way in's options. */
export interface LinkRequest {
  path: string;
  profile?: DeviceProfile;
  options: WayInOptions;
  /**
   * A one-time code the person typed to pair (`devices pair PATH --code CODE`), for the probe of a
   * way in whose devices ask for one; never kept: what pairing keeps is what the probe returns as options.
   */
  pairingCode?: string;
  /**
   * The other pairings of this way in (their paths and kept options), for a probe that may reuse what
   * one of them agreed (a second device behind a bridge already paired needs no new code).
   */
  pairedBeside?: readonly { path: string; options: WayInOptions }[];
}

/** What a probe found, granting nothing: the hello, the options as they will be kept (defaults filled in), more to show. */
export interface ProbeResult {
  hello: HelloResult;
  options: WayInOptions;
  /** Lines to show before the person confirms (a unit's bus settings, what it reads now). */
  details: string[];
  /** Where its commands go and what they send, when its way in says it (see DeviceLink.wiring): shown and pinned. */
  wiring?: LinkWiring;
  /** A room the device's source suggests (checked by the room rule): shown, and kept only if the person confirms it. */
  suggestedRoom?: string;
}

/**
 * One way a device connects (a serial port speaking our protocol or a line profile, a unit
 * on a shared bus, later a device behind a broker). The registry, pairing, the store and the host
 * see only this; a new way in is one folder implementing it and one entry in the list of ways in.
 */
export interface WayIn {
  /** Stored with each pairing (`serial`). */
  readonly kind: string;
  /** For messages: what a person calls it (`serial`). */
  readonly label: string;
  /**
   * Its options besides `profile`, as typed (`k=v`, a form) and stored; strict, every key optional or
   * required as it needs. A key whose schema's meta says `{kept: true}` is never typed: the probe
   * returns it (what a one-time pairing step agreed) and pairing keeps it.
   */
  readonly optionsSchema: z.ZodObject;
  /** A profile to suggest when its options are given without one (`eastron-sdm120`); absent when it needs none. */
  readonly profileExample?: string;
  /**
   * Its paths are names of its own (`z2m:kitchen-lamp`), not files: kept as typed, never made
   * absolute or looked for on disk. Absent: its paths are files (ports).
   */
  readonly namesItsPaths?: boolean;
  /** For the legend of a scan: what each SOURCE its scan lists means (`SOURCE: what it is`). */
  readonly sourceMeanings?: Readonly<Record<string, string>>;
  /** What `--help` says of it; absent for a way in with no options a person types. */
  readonly help?: WayInHelp;
  /**
   * What to check when a device at one of its paths does not say who it is, added to the refusal;
   * absent when its own errors say it (a broker's device: the code, the bridge).
   */
  readonly probeHint?: string;
  /**
   * Whether a device asked for at this path (when known), with this profile and these options, goes
   * this way; the list's first that claims it wins. A way in whose paths have a form of their own
   * (`z2m:kitchen-lamp`) claims them by their path.
   */
  claims(request: { path?: string | undefined; profile?: DeviceProfile | undefined; options: WayInOptions }): boolean;
  /** Where a device with these (checked) options sits: its path, its address, the lane it shares. */
  placement(path: string, options: WayInOptions): LinkPlacement;
  /**
   * Why a pairing with `options` may not share its path with another of this way in at `other`
   * (`' as the same unit 1'`), or undefined when it may. Devices of two ways never share one.
   */
  sharingProblem(options: WayInOptions, other: WayInOptions): string | undefined;
  /** For listings, after the path: `unit 1 at 9600 8N1`; empty when there is nothing to add. */
  describe(options: WayInOptions): string;
  /**
   * The fields a JSON listing of pairings carried for this way in before pairings kept their way in
   * (`devices list --json` keeps its shape): absent for a way in that came after.
   */
  listedBefore?(options: WayInOptions): Record<string, unknown>;
  /** This way in's links for one registry: what they share (a bus per port) lives as long as it does. */
  connect(defaults: LinkDefaults): WayInConnections;
}

/** What help says of a way in's options, so no help text outside its folder names them. */
export interface WayInHelp {
  /** `devices pair PATH` then this: `--profile PROFILE --unit N [--baud B] …`. */
  pairUsage: string;
  /** What its options are, for `--device` (`unit and bus settings`). */
  summary: string;
  /** Each option's value placeholder and what it is, by key (`unit: {value: 'N', text: 'the unit id…'}`). */
  options: Readonly<Record<string, { value: string; text: string }>>;
}

/** One device a way in's scan found: what a person pairs (its path) and what the scan line shows. */
export interface ScannedDevice {
  path: string;
  /** Where the scan found it, the scan line's SOURCE column (`z2m`). */
  source: string;
  identity: DeviceIdentity;
  online: boolean;
  /** Set when pairing it needs a one-time code now (a bridge's first device); absent when it needs none. */
  needsCode?: true;
}

/** Something a way in's scan saw announced but does not offer (`ha:kitchen/lamp (light)`), with its SOURCE and why. */
export interface RefusedScannedDevice {
  name: string;
  source: string;
  why: string;
}

/** The links of one way in for one registry. */
export interface WayInConnections {
  /** A link to the device, not started; throws before any port opens when the request is refused. */
  open(request: LinkRequest): DeviceLink;
  /** Asks the device who it is and what it offers, granting nothing; rejects `device_offline` when it does not answer in time. */
  probe(request: LinkRequest, options: { timeoutMs: number; signal?: AbortSignal }): Promise<ProbeResult>;
  /** A link over any line transport (an in-process simulator), for ways in that run on one. */
  openConnector?(connector: TransportConnector): DeviceLink;
  /**
   * Optional: the devices this way in finds by itself (those behind a broker), granting nothing. A way
   * in that scans probes only paths its scan lists. Rejects when it cannot look (no broker, refused).
   */
  scan?(options: { timeoutMs: number; signal?: AbortSignal }): Promise<ScannedDevice[]>;
  /** Optional, beside `scan`: what it saw announced but does not offer, and why (read after a scan). */
  refused?(): RefusedScannedDevice[];
  /** Lets go of what its links share (a broker connection); called when the registry is disposed. */
  dispose?(): Promise<void>;
}
