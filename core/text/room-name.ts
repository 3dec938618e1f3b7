import { displayNameSchema } from './display-name-schema.ts';

/**
 * A room's name as a person gives it: the alias rule (one line, 1 to 100 characters, no control
 * character, not only invisible ones), so every front end refuses the same names with the same reasons.
 */
export const roomNameSchema = displayNameSchema;

/** What two spellings of one room share: rooms are matched case-insensitively ("Kitchen" is "kitchen"). */
export function roomKey(room: string): string {
  return room.trim().normalize('NFC').toLowerCase();
}

/** True when `a` and `b` name the same room, whatever their case. */
export function sameRoom(a: string, b: string): boolean {
  return roomKey(a) === roomKey(b);
}
