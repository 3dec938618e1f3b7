import { readFileSync } from 'node:fs';
import { BUILTIN_MODBUS_PROFILES } from '../modbus/builtin-modbus-profiles.ts';
import { parseModbusProfile, type ModbusProfile } from '../modbus/modbus-profile-schema.ts';
import { AT_RELAY_BOARD_PROFILE } from './at-relay-board-profile.ts';
import { parseLineProfile, type LineProfile } from './line-profile-schema.ts';

/** The line profiles that ship with Home Agent, by the name a person types. */
export const BUILTIN_PROFILES: Readonly<Record<string, LineProfile>> = {
  'at-relay-4': AT_RELAY_BOARD_PROFILE,
};

/** What a device speaks through: text lines (AT-style), or a Modbus RTU register map. */
export type DeviceProfile =
  | { protocol: 'lines'; name: string; profile: LineProfile }
  | { protocol: 'modbus-rtu'; name: string; profile: ModbusProfile };

/** Every builtin profile name, for messages and usage lines. */
export const BUILTIN_PROFILE_NAMES: readonly string[] = [
  ...Object.keys(BUILTIN_PROFILES),
  ...Object.keys(BUILTIN_MODBUS_PROFILES),
];

/**
 * A profile by builtin name, or from a JSON file: a Modbus one when it says `"protocol":
 * "modbus-rtu"`, else a line profile. Validated; an error names the problem and the builtin names.
 * Devices that speak the Home Agent protocol need none.
 */
export function resolveDeviceProfile(nameOrFile: string): DeviceProfile {
  const line = BUILTIN_PROFILES[nameOrFile];
  if (line) return { protocol: 'lines', name: nameOrFile, profile: line };
  const modbus = BUILTIN_MODBUS_PROFILES[nameOrFile];
  if (modbus) return { protocol: 'modbus-rtu', name: nameOrFile, profile: modbus };
  let text: string;
  try {
    text = readFileSync(nameOrFile, 'utf8');
  } catch {
    throw new Error(
      `no profile named '${nameOrFile}' (built in: ${BUILTIN_PROFILE_NAMES.join(', ')}) and no such file`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`the profile ${nameOrFile} is not JSON: ${(error as Error).message}`, { cause: error });
  }
  if (typeof json === 'object' && json !== null && (json as { protocol?: unknown }).protocol === 'modbus-rtu')
    return { protocol: 'modbus-rtu', name: nameOrFile, profile: parseModbusProfile(json, `the profile ${nameOrFile}`) };
  try {
    return { protocol: 'lines', name: nameOrFile, profile: parseLineProfile(json) };
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
