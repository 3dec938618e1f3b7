import { z } from 'zod';
import { deviceIdentitySchema } from '../../devices/protocol/frame-schema.ts';
import { declarationDifferenceSchema } from '../../devices/protocol/compare-declarations.ts';
import { PORT_SOURCE_MEANINGS, PORT_SOURCES } from '../../devices/ways-in/serial-port-sources.ts';
import { displayNameSchema } from '../../core/text/display-name-schema.ts';
import { roomNameSchema } from '../../core/text/room-name.ts';
import { describeMove, MOVE_REASONS } from '../../devices/discovery/move-reason.ts';

/**
 * The devices and approvals part of the API contract (spread into `apiContract`): finding, pairing,
 * granting, renaming, forgetting and re-trusting devices, and the standing approvals ("Always
 * allow"). Every front end does these through here, so the window and the web app behave the same.
 */

export { deviceIdentitySchema, PORT_SOURCE_MEANINGS, describeMove };
export type DeviceIdentity = z.infer<typeof deviceIdentitySchema>;

/** How many of a device's own announcements are kept (the host's activity, the Devices tab): the newest. */
export const RECENT_DEVICE_EVENTS = 10;

const deviceId = z.string().min(1).max(200);
const toolName = z.string().min(1).max(200);
const portPath = z.string().min(1).max(500);
/** The devices paired at a path, each by its id and alias. */
const pairedAtPath = z.array(z.object({ id: z.string(), alias: z.string() }));
// A person's name for a device: the same one rule as the CLI's (one line, visible, at most 100 characters).
const alias = displayNameSchema;

/** One action a device offers, as the person is shown it before granting it. */
export const deviceActionSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** The person confirms each call of it (switching mains, unlocking a door). */
  asksApproval: z.boolean(),
  /** It only reads (a lock's state): never needs the approval PIN by its kind's default. */
  readOnly: z.boolean().optional(),
  /** Its declaration (the device's, or its profile's) says its calls need the approval PIN by default. */
  declaresPin: z.boolean().optional(),
  parallelSafe: z.boolean(),
  serial: z.boolean(),
});
export type DeviceAction = z.infer<typeof deviceActionSchema>;

/** How the host reaches a device: paired in the store, or named on the command line for this run. */
export const deviceSourceSchema = z.enum(['paired', 'command-line']);

/** A port a scan found, what the OS says about it, and whether a device is paired or attached there. */
export const scannedPortSchema = z.object({
  path: z.string(),
  /** How the scan found it (see PORT_SOURCE_MEANINGS). */
  source: z.enum(PORT_SOURCES),
  vendorId: z.string().optional(),
  productId: z.string().optional(),
  serialNumber: z.string().optional(),
  manufacturer: z.string().optional(),
  /** A simulator's port: what it plays, and the profile to pair it with when it speaks plain lines. */
  simulated: z.object({ id: z.string(), kind: z.string(), profile: z.string().optional() }).optional(),
  /** Devices paired at this path (several only for units of one bus). */
  paired: pairedAtPath,
  /** The device attached here from the command line, if any: this port is not free to pair. */
  attachedFromCommandLine: z.string().optional(),
});
export type ScannedPort = z.infer<typeof scannedPortSchema>;

/** A device a way in found by itself (behind a broker), granting nothing: what the Add-device panel lists beside the ports. */
export const foundDeviceSchema = z.object({
  path: z.string(),
  /** Where it was found (the scan's SOURCE: `z2m`), and what that means. */
  source: z.string(),
  about: z.string(),
  id: z.string(),
  kind: z.string(),
  model: z.string(),
  online: z.boolean(),
  /** Devices paired at this path. */
  paired: pairedAtPath,
  /** True when pairing it needs the one-time code its bridge printed (absent: it needs none, or an older host). */
  needsCode: z.boolean().optional(),
});
export type FoundDevice = z.infer<typeof foundDeviceSchema>;

/**
 * A profile a device may speak through (`at-relay-4` speaks `lines`), and when its way in takes
 * options, their JSON schema (its `title` names what the profile speaks; each required property is
 * asked, labelled by its `title`). The host checks them again by the way in's own schema.
 */
export const deviceProfileSchema = z.object({
  name: z.string(),
  protocol: z.string(),
  options: z.record(z.string(), z.unknown()).optional(),
});

/** Where to find a device and how it talks: a path, and a profile (with its way in's options) when it does not speak our protocol. */
const placementInput = {
  path: portPath,
  profile: z.string().min(1).max(500).optional(),
  /** The way in's options as the profile's `options` schema asks them (`{unit: 1}`). */
  options: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  /** The same as `options.unit`, as older windows send it. */
  unit: z.number().int().min(1).max(247).optional(),
};

/** A one-time pairing code as a bridge prints it: letters, digits and -, no spaces. */
export const pairingCodeSchema = z
  .string()
  .regex(/^[A-Za-z0-9-]{1,64}$/, 'the pairing code as the bridge printed it: letters, digits and -, no spaces');

/** sha256 (hex) of the actions a device declares, schemas and flags included (`declarationHash`). */
const declarationHash = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in lower-case hex');

/** What a device said it is when the host opened its port. */
export const probedDeviceSchema = z.object({
  path: z.string(),
  identity: deviceIdentitySchema,
  actions: z.array(deviceActionSchema),
  /** Of what it declares; give it back to `devices/pair`, so what is pinned is what was shown (absent from older hosts). */
  declarationHash: z.string().optional(),
  /** More to show (a unit's bus settings and what it reads now). */
  details: z.array(z.string()),
  /** A room its source suggests (Home Assistant's `suggested_area`): the pairing form offers it, the person confirms it. */
  suggestedRoom: z.string().optional(),
  /** When this id is paired already: under which name and identity (pairing again starts with no grants). */
  previous: z.object({ alias: z.string(), identity: deviceIdentitySchema, path: z.string() }).optional(),
  /** Why it cannot be paired as it is (its id is another attached device's). */
  conflict: z.string().optional(),
});
export type ProbedDevice = z.infer<typeof probedDeviceSchema>;

/**
 * A device's identity as paired beside the one it announces now, when it differs or the device
 * declares otherwise than what was pinned at pairing (`differences`: which action, which flag, which schema).
 */
export const identityChangeSchema = z.object({
  trusted: deviceIdentitySchema,
  current: deviceIdentitySchema,
  currentActions: z.array(deviceActionSchema),
  /** How what it declares now differs from what was pinned (absent from older hosts). */
  differences: z.array(declarationDifferenceSchema).optional(),
  /** Of what it declares now; give it back to `devices/trust` (absent from older hosts). */
  declarationHash: z.string().optional(),
});
export type IdentityChange = z.infer<typeof identityChangeSchema>;

/** Everything the Devices tab shows of one device (the fields after `tools` are absent from older hosts). */
export const deviceSummarySchema = z.object({
  id: z.string(),
  alias: z.string(),
  /** The room the person put it in, '' for none (absent from older hosts and for devices named on the command line). */
  room: z.string().optional(),
  kind: z.string(),
  path: z.string(),
  online: z.boolean(),
  tools: z.array(z.string()),
  /** False when the device's hello no longer matches the identity confirmed at pairing: the agent cannot use it. */
  trusted: z.boolean().optional(),
  /** Frames this device sent that were dropped, by kind (counted since the app started). */
  frameProblems: z.object({ oversized: z.number(), invalidJson: z.number(), invalidFrame: z.number() }).optional(),
  source: deviceSourceSchema.optional(),
  status: z.enum(['connecting', 'online', 'offline', 'closed', 'left-out']).optional(),
  model: z.string().optional(),
  firmware: z.string().optional(),
  /** Each declared action, with whether the person must confirm its calls. */
  actions: z.array(deviceActionSchema).optional(),
  /** The actions the agent may use now (every one for a device named on the command line). */
  granted: z.array(z.string()).optional(),
  /** Actions with a standing approval on this device ("Always allow"). */
  alwaysAllowed: z.array(z.string()).optional(),
  /** Its latest trouble: a failed connection, a refused hello (with the reason), an event flood. */
  lastError: z.object({ message: z.string(), at: z.number() }).optional(),
  /** Events it sent past its rate (the setting deviceEventsPerSecond), dropped and counted. */
  eventsDropped: z.number().optional(),
  /** Its latest announcements, oldest first: at most RECENT_DEVICE_EVENTS. */
  recentEvents: z
    .array(z.object({ event: z.string(), data: z.record(z.string(), z.unknown()), at: z.number() }))
    .optional(),
  identityChange: identityChangeSchema.optional(),
  /** Why this paired device is left out (another device has its id or port) and what resolves it. */
  conflict: z.string().optional(),
  /** The port this paired device was followed from, when, and how the host told it was the same device. */
  movedFrom: z.object({ path: z.string(), at: z.number(), because: z.enum(MOVE_REASONS) }).optional(),
});
export type DeviceSummary = z.infer<typeof deviceSummarySchema>;

/** A standing approval: exactly this tool, on exactly this device (absent for a tool that is not a device's). */
export const standingApprovalSchema = z.object({
  tool: z.string(),
  deviceId: z.string().optional(),
  createdAt: z.number(),
});
export type StandingApprovalSummary = z.infer<typeof standingApprovalSchema>;

const grantChange = {
  input: z
    .object({ deviceId, actions: z.array(z.string().min(1).max(100)).max(64).optional(), all: z.boolean().optional() })
    .refine((input) => input.all === true || (input.actions?.length ?? 0) > 0, {
      message: 'name the actions, or all',
      path: ['actions'],
    }),
  output: z.object({ deviceId: z.string(), granted: z.array(z.string()) }),
};

/** The methods of this part of the API. */
export const deviceContract = {
  'devices/list': { input: z.object({}), output: z.object({ devices: z.array(deviceSummarySchema) }) },
  /** Finds ports without opening any (opening resets many Arduinos); marks ports already paired or in use. */
  'devices/scan': {
    input: z.object({ paths: z.array(portPath).max(20).optional() }),
    output: z.object({
      ports: z.array(scannedPortSchema),
      warnings: z.array(z.string()),
      profiles: z.array(deviceProfileSchema),
      /** Devices the ways in that look by themselves found (behind a broker); absent when none looks. */
      found: z.array(foundDeviceSchema).optional(),
    }),
  },
  /**
   * Opens the port just long enough to ask the device who it is; pairs nothing. `code`: the one-time
   * code of a found device that needs one (its bridge's agreement is made with it, for `devices/pair`
   * to use); it is never stored or sent back.
   */
  'devices/probe': {
    input: z.object({ ...placementInput, code: pairingCodeSchema.optional() }),
    output: probedDeviceSchema,
  },
  /**
   * Pairs the device at the path with no grants, if it still announces `identity` and declares
   * what `declarationHash` (from the probe) names: what the person was shown; 409 when it now
   * says something else. What it declares is pinned: a later weaker declaration is not used until trusted.
   */
  'devices/pair': {
    input: z.object({
      ...placementInput,
      alias: alias.optional(),
      /** The room it is in (the alias rule; matched case-insensitively, stored as the home already spells it). */
      room: roomNameSchema.optional(),
      identity: deviceIdentitySchema,
      declarationHash: declarationHash.optional(),
    }),
    /** `room`: as stored; absent when it has none (and from older hosts). */
    output: z.object({ deviceId: z.string(), alias: z.string(), room: z.string().optional() }),
  },
  /** Lets the agent use these actions of a paired device (or all of them). */
  'devices/grant': grantChange,
  /** Takes these actions (or all) away from the agent; applies to the next call. */
  'devices/revoke': grantChange,
  'devices/rename': {
    input: z.object({ deviceId, alias }),
    output: z.object({ deviceId: z.string(), alias: z.string() }),
  },
  /**
   * Puts a paired device in a room (the alias rule, matched case-insensitively: the home's spelling
   * of that room is kept), or in none when `room` is null or absent. Answers the room as stored, '' for none.
   */
  'devices/room': {
    input: z.object({ deviceId, room: roomNameSchema.nullable().optional() }),
    output: z.object({ deviceId: z.string(), room: z.string() }),
  },
  /** Removes the pairing, its grants and its standing approvals, and lets go of the port. */
  'devices/forget': { input: z.object({ deviceId }), output: z.object({ forgotten: z.boolean() }) },
  /**
   * Trusts the identity and declaration a paired device announces now (it changed), if it still
   * announces `identity` and declares what `declarationHash` names (what the person was shown);
   * the grants stay, and what it declares is pinned. 409 when it says something else.
   */
  'devices/trust': {
    input: z.object({ deviceId, identity: deviceIdentitySchema, declarationHash: declarationHash.optional() }),
    output: z.object({ deviceId: z.string() }),
  },
  /** Every standing approval of this data folder. */
  'approvals/list': { input: z.object({}), output: z.object({ approvals: z.array(standingApprovalSchema) }) },
  /** Takes a standing approval back: the next such call asks again. */
  'approvals/revoke': {
    input: z.object({ tool: toolName, deviceId: deviceId.optional() }),
    output: z.object({ revoked: z.boolean() }),
  },
} as const;
