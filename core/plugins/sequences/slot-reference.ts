import { readSlotPath, splitSlotPath, type SlotValues } from './read-slot-path.ts';

/** The marker key: `{ "$slot": "reading.result.celsius" }` stands for that slot value, whole. */
export const SLOT_REFERENCE_KEY = '$slot';

/** A slot read found in a call's args, with the field it sits at (`groups[1].calls[0].args.level`). */
export interface SlotReference {
  segments: string[];
  field: string;
}

/** Every `$slot` marker in an args tree, and the markers that are malformed. */
export function collectSlotReferences(
  args: unknown,
  field: string,
): { references: SlotReference[]; problems: { field: string; detail: string }[] } {
  const references: SlotReference[] = [];
  const problems: { field: string; detail: string }[] = [];
  const visit = (value: unknown, at: string): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, `${at}[${index}]`));
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const record = value as Record<string, unknown>;
    if (Object.hasOwn(record, SLOT_REFERENCE_KEY)) {
      const path = record[SLOT_REFERENCE_KEY];
      const segments = typeof path === 'string' ? splitSlotPath(path) : null;
      if (Object.keys(record).length !== 1 || segments === null) {
        problems.push({
          field: at,
          detail: `${at}: a slot reference is an object with the single key "$slot" and a path like "reading.result.celsius" (no empty parts, no __proto__/constructor/prototype)`,
        });
      } else references.push({ segments, field: at });
      return;
    }
    for (const [key, item] of Object.entries(record)) visit(item, `${at}.${key}`);
  };
  visit(args, field);
  return { references, problems };
}

/** A copy of the args with every `$slot` marker replaced by the slot value it names (undefined if absent). */
export function resolveSlotReferences(args: Record<string, unknown>, slots: SlotValues): Record<string, unknown> {
  const resolve = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resolve);
    if (typeof value !== 'object' || value === null) return value;
    const record = value as Record<string, unknown>;
    if (Object.hasOwn(record, SLOT_REFERENCE_KEY) && typeof record[SLOT_REFERENCE_KEY] === 'string') {
      const segments = splitSlotPath(record[SLOT_REFERENCE_KEY]);
      return segments ? readSlotPath(slots, segments) : undefined;
    }
    return Object.fromEntries(Object.entries(record).map(([key, item]) => [key, resolve(item)]));
  };
  return resolve(args) as Record<string, unknown>;
}
