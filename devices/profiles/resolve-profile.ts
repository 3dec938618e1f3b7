import { createHash } from 'node:crypto';
import { z } from 'zod';
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { BUILTIN_MODBUS_PROFILES } from '../modbus/builtin-modbus-profiles.ts';
import { parseModbusProfile, type ModbusProfile } from '../modbus/modbus-profile-schema.ts';
import { AT_RELAY_BOARD_PROFILE } from './at-relay-board-profile.ts';
import { parseLineProfile, type LineProfile } from './line-profile-schema.ts';

/** The line profiles that ship with Home Agent, by the name a person types. */
export const BUILTIN_PROFILES: Readonly<Record<string, LineProfile>> = {
  'at-relay-4': AT_RELAY_BOARD_PROFILE,
};

/** The largest profile file read (and pinned with its pairing): the shipped ones are under 4 KiB. */
export const MAX_PROFILE_FILE_BYTES = 256 * 1024;

/** A profile file's text as it was read, and its sha256 (hex): what a pairing pins beside the path. */
export const profileSourceSchema = z.strictObject({
  content: z.string().max(MAX_PROFILE_FILE_BYTES),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in lower-case hex'),
});
export type ProfileSource = z.infer<typeof profileSourceSchema>;

/** What a device speaks through: text lines (AT-style), or a Modbus RTU register map. */
export type DeviceProfile = (
  | { protocol: 'lines'; name: string; profile: LineProfile }
  | { protocol: 'modbus-rtu'; name: string; profile: ModbusProfile }
) & {
  /** For a profile read from a file: the text it was read from (absent for builtin profiles). */
  source?: ProfileSource;
};

/** Every builtin profile name, for messages and usage lines. */
export const BUILTIN_PROFILE_NAMES: readonly string[] = [
  ...Object.keys(BUILTIN_PROFILES),
  ...Object.keys(BUILTIN_MODBUS_PROFILES),
];

/**
 * A profile by builtin name, or from a JSON file: a Modbus one when it says `"protocol":
 * "modbus-rtu"`, else a line profile. Validated; an error names the problem and the builtin names.
 * A file's profile carries the text it was read from (`source`). Devices that speak the Home Agent
 * protocol need none.
 */
export function resolveDeviceProfile(nameOrFile: string): DeviceProfile {
  const line = BUILTIN_PROFILES[nameOrFile];
  if (line) return { protocol: 'lines', name: nameOrFile, profile: line };
  const modbus = BUILTIN_MODBUS_PROFILES[nameOrFile];
  if (modbus) return { protocol: 'modbus-rtu', name: nameOrFile, profile: modbus };
  const content = readProfileFile(nameOrFile);
  return { ...parseProfileText(nameOrFile, content), source: profileSource(content) };
}

/** The source record of a profile's text: the text and its sha256. */
export function profileSource(content: string): ProfileSource {
  return { content, sha256: createHash('sha256').update(content, 'utf8').digest('hex') };
}

/** A profile from its JSON text (a file's, or the one pinned with a pairing); `name` is for messages. */
export function parseProfileText(name: string, text: string): DeviceProfile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`the profile ${name} is not JSON: ${(error as Error).message}`, { cause: error });
  }
  if (typeof json === 'object' && json !== null && (json as { protocol?: unknown }).protocol === 'modbus-rtu')
    return { protocol: 'modbus-rtu', name, profile: parseModbusProfile(json, `the profile ${name}`) };
  try {
    return { protocol: 'lines', name, profile: parseLineProfile(json) };
  } catch (error) {
    const looksModbus = typeof json === 'object' && json !== null && ('sensors' in json || 'switches' in json);
    if (!looksModbus) throw error;
    throw new Error(`${(error as Error).message} (a Modbus profile says "protocol": "modbus-rtu")`, { cause: error });
  }
}

/** A line profile by builtin name or file; a Modbus profile here is an error that says how to attach one. */
export function resolveProfile(nameOrFile: string): LineProfile {
  const resolved = resolveDeviceProfile(nameOrFile);
  if (resolved.protocol === 'lines') return resolved.profile;
  throw new Error(`${nameOrFile} is a Modbus profile: give the unit too (unit=N, or --unit N)`);
}

/** The line profile a device speaks through (none for our protocol); a Modbus profile here is an error that says how to attach one. */
export function lineProfileOf(profile: DeviceProfile | undefined): LineProfile | undefined {
  if (profile === undefined || profile.protocol === 'lines') return profile?.profile;
  throw new Error(`${profile.name} is a Modbus profile: give the unit too (unit=N, or --unit N)`);
}

/**
 * A profile file's text: a regular file of at most MAX_PROFILE_FILE_BYTES (a FIFO would hang the
 * read, a device file would never end), else an error naming the file and what it is.
 */
function readProfileFile(file: string): string {
  let descriptor: number;
  try {
    // Non-blocking, so opening a FIFO does not wait for a writer: fstat then refuses it.
    descriptor = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    throw new Error(`no profile named '${file}' (built in: ${BUILTIN_PROFILE_NAMES.join(', ')}) and no such file`);
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
