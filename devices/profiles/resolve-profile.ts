import { readFileSync } from 'node:fs';
import { AT_RELAY_BOARD_PROFILE } from './at-relay-board-profile.ts';
import { parseLineProfile, type LineProfile } from './line-profile-schema.ts';

/** The line profiles that ship with Home Agent, by the name a person types. */
export const BUILTIN_PROFILES: Readonly<Record<string, LineProfile>> = {
  'at-relay-4': AT_RELAY_BOARD_PROFILE,
};

/**
 * A profile by builtin name, or from a JSON file (validated; an error names the problem and the
 * builtin names). Devices that speak the Home Agent protocol need none.
 */
export function resolveProfile(nameOrFile: string): LineProfile {
  const builtin = BUILTIN_PROFILES[nameOrFile];
  if (builtin) return builtin;
  let text: string;
  try {
    text = readFileSync(nameOrFile, 'utf8');
  } catch {
    throw new Error(
      `no line profile named '${nameOrFile}' (built in: ${Object.keys(BUILTIN_PROFILES).join(', ')}) and no such file`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`the line profile ${nameOrFile} is not JSON: ${(error as Error).message}`, { cause: error });
  }
  return parseLineProfile(json);
}
