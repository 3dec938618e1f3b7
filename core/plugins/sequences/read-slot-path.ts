/** Property names that reach an object's prototype; refused in slot paths and conditions. */
export const FORBIDDEN_PROPERTY_NAMES: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/** The slots of one run: slot name → `{ ok, result?, error?, skipped? }`, plus the `input` slot. */
export type SlotValues = ReadonlyMap<string, unknown>;

/**
 * One step of member access: an own property of an object or array, else undefined. Own
 * properties only, so nothing on a prototype (functions, `constructor`) is ever reachable.
 */
export function readOwnProperty(value: unknown, key: string | number): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  const name = String(key);
  if (FORBIDDEN_PROPERTY_NAMES.includes(name)) return undefined;
  return Object.hasOwn(value, name) ? (value as Record<string, unknown>)[name] : undefined;
}

/** Splits `reading.result.celsius` into its segments; null when a segment is empty or forbidden. */
export function splitSlotPath(path: string): string[] | null {
  const segments = path.split('.');
  if (segments.some((segment) => segment === '' || FORBIDDEN_PROPERTY_NAMES.includes(segment))) return null;
  return segments;
}

/** Reads `slot.a.b` from the slots of a run; a missing step gives undefined, never a throw. */
export function readSlotPath(slots: SlotValues, segments: readonly string[]): unknown {
  const [slot, ...rest] = segments;
  if (slot === undefined) return undefined;
  let value: unknown = slots.get(slot);
  for (const segment of rest) value = readOwnProperty(value, segment);
  return value;
}
