import type { DeviceTool } from '../protocol/frame-schema.ts';

/**
 * One kind of profile file a way in speaks through (text lines, a register map). Resolving a profile
 * and comparing it with the one pinned at pairing go through these, so no profile code names a
 * protocol: a way in that reads profiles brings its format, listed in devices/ways-in/.
 */
export interface ProfileFormat<Profile = unknown> {
  /** What a resolved profile's `protocol` says (`lines`, or what its files say as `"protocol"`). */
  readonly protocol: string;
  /** For messages: `a line profile`, `a register-map profile`. */
  readonly label: string;
  /** The profiles of this format that ship with Home Agent, by the name a person types. */
  readonly builtins: Readonly<Record<string, Profile>>;
  /** Whether a profile file's JSON says it is of this format; the format that takes the rest claims none. */
  says(json: unknown): boolean;
  /** The profile, validated; `what` names it in errors (`the profile ./board.json`). */
  parse(json: unknown, what: string): Profile;
  /** A hint for JSON that failed every format but looks like this one (how to say which format it is). */
  hintFor?(json: unknown): string | undefined;
  /** What a device attached with a profile of this format needs besides it, for an error (`give the unit too …`). */
  readonly needs?: string;
  /** The tools a profile declares, as its device's hello says them. */
  tools(profile: Profile): DeviceTool[];
  /** The profile without whether each action asks: that part is compared as the declared tools. */
  withoutConfirm(profile: Profile): Record<string, unknown>;
}

/** What a device speaks through: a profile of one format, and its source text when read from a file. */
export interface DeviceProfile {
  protocol: string;
  name: string;
  profile: unknown;
  /** For a profile read from a file: the text it was read from (absent for builtin profiles). */
  source?: { content: string; sha256: string };
}

/** The profile as `format` reads it, or undefined when it is of another format. */
export function profileOfFormat<Profile>(
  format: ProfileFormat<Profile>,
  profile: DeviceProfile | undefined,
): Profile | undefined {
  // Resolved profiles are parsed by their format before they carry its protocol, so the cast holds.
  return profile?.protocol === format.protocol ? (profile.profile as Profile) : undefined;
}
