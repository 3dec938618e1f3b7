import { createHash } from 'node:crypto';
import { z } from 'zod';
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { lineProfileFormat } from './line-profile-format.ts';
import type { LineProfile } from './line-profile-schema.ts';
import { profileOfFormat, type DeviceProfile, type ProfileFormat } from './profile-format.ts';

export type { DeviceProfile } from './profile-format.ts';

/** The line profiles that ship with Home Agent, by the name a person types. */
export const BUILTIN_PROFILES: Readonly<Record<string, LineProfile>> = lineProfileFormat.builtins;

/** The largest profile file read (and pinned with its pairing): the shipped ones are under 4 KiB. */
export const MAX_PROFILE_FILE_BYTES = 256 * 1024;

/** A profile file's text as it was read, and its sha256 (hex): what a pairing pins beside the path. */
export const profileSourceSchema = z.strictObject({
  content: z.string().max(MAX_PROFILE_FILE_BYTES),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in lower-case hex'),
});
export type ProfileSource = z.infer<typeof profileSourceSchema>;

/**
 * Reads profiles of the given formats, tried in order (the ways in's formats, listed in
 * devices/ways-in/builtin-profile-formats.ts, which binds these to that list).
 */
export interface ProfileReader {
  /** Every builtin profile name, for messages and usage lines. */
  readonly BUILTIN_PROFILE_NAMES: readonly string[];
  /** The format a resolved profile is of. */
  formatOf(profile: DeviceProfile): ProfileFormat;
  /**
   * A profile by builtin name, or from a JSON file: of the format its JSON says (`"protocol"`), else a
   * line profile. Validated; an error names the problem and the builtin names. A file's profile carries
   * the text it was read from (`source`). Devices that speak the Home Agent protocol need none.
   */
  resolveDeviceProfile(nameOrFile: string): DeviceProfile;
  /** A profile from its JSON text (a file's, or the one pinned with a pairing); `name` is for messages. */
  parseProfileText(name: string, text: string): DeviceProfile;
  /** The line profile a device speaks through (none for our protocol); a profile of another format here is an error that says how to attach one. */
  lineProfileOf(profile: DeviceProfile | undefined): LineProfile | undefined;
}

/** The profile reader of `formats`. */
export function profileReader(formats: readonly ProfileFormat[]): ProfileReader {
  const names = formats.flatMap((format) => Object.keys(format.builtins));
  const formatOf = (profile: DeviceProfile): ProfileFormat => {
    const format = formats.find((candidate) => candidate.protocol === profile.protocol);
    if (format === undefined)
      throw new Error(`the profile ${profile.name} speaks ${profile.protocol}, which no way in reads`);
    return format;
  };
  const parseProfileText = (name: string, text: string): DeviceProfile => {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new Error(`the profile ${name} is not JSON: ${(error as Error).message}`, { cause: error });
    }
    const said = formats.find((format) => format.says(json));
    if (said !== undefined) return { protocol: said.protocol, name, profile: said.parse(json, `the profile ${name}`) };
    try {
      return {
        protocol: lineProfileFormat.protocol,
        name,
        profile: lineProfileFormat.parse(json, `the profile ${name}`),
      };
    } catch (error) {
      const hint = formats.map((format) => format.hintFor?.(json)).find((text) => text !== undefined);
      if (hint === undefined) throw error;
      throw new Error(`${(error as Error).message} (${hint})`, { cause: error });
    }
  };
  return {
    BUILTIN_PROFILE_NAMES: names,
    formatOf,
    parseProfileText,
    resolveDeviceProfile: (nameOrFile) => {
      for (const format of formats) {
        const builtin = format.builtins[nameOrFile];
        if (builtin !== undefined) return { protocol: format.protocol, name: nameOrFile, profile: builtin };
      }
      const content = readProfileFile(nameOrFile, names);
      return { ...parseProfileText(nameOrFile, content), source: profileSource(content) };
    },
    lineProfileOf: (profile) => {
      if (profile === undefined) return undefined;
      const lines = profileOfFormat(lineProfileFormat, profile);
      if (lines !== undefined) return lines;
      const format = formatOf(profile);
      throw new Error(`${profile.name} is ${format.label}${format.needs ? `: ${format.needs}` : ''}`);
    },
  };
}

/** The source record of a profile's text: the text and its sha256. */
export function profileSource(content: string): ProfileSource {
  return { content, sha256: createHash('sha256').update(content, 'utf8').digest('hex') };
}

/**
 * A profile file's text: a regular file of at most MAX_PROFILE_FILE_BYTES (a FIFO would hang the
 * read, a device file would never end), else an error naming the file and what it is.
 */
function readProfileFile(file: string, builtinNames: readonly string[]): string {
  let descriptor: number;
  try {
    // Non-blocking, so opening a FIFO does not wait for a writer: fstat then refuses it.
    descriptor = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    throw new Error(`no profile named '${file}' (built in: ${builtinNames.join(', ')}) and no such file`);
  }
  try {
    const stats = fstatSync(descriptor);
    if (!stats.isFile()) throw new Error(`the profile ${file} is not a regular file`);
    if (stats.size > MAX_PROFILE_FILE_BYTES)
      throw new Error(
        `the profile ${file} is ${stats.size} bytes; a profile is at most ${MAX_PROFILE_FILE_BYTES} bytes`,
      );
    return readFileSync(descriptor, 'utf8');
  } finally {
    closeSync(descriptor);
  }
}
