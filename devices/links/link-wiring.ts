import { z } from 'zod';
import type { DeclarationDifference } from '../protocol/compare-declarations.ts';

/** The most fields one device's wiring has (a device with many outputs has a few per output). */
export const MAX_WIRING_FIELDS = 64;
/** The longest quote of a wiring value in a difference (a topic or a template can be long). */
const QUOTE_LIMIT = 120;

/** One labelled field of a device's wiring, as its way in reads it (`command topic` = `…/set`). */
export const wiringFieldSchema = z.strictObject({
  label: z.string().min(1).max(100),
  value: z.string().max(2000),
});
/** One field of a device's wiring. */
export type WiringField = z.infer<typeof wiringFieldSchema>;

/**
 * What decides what a device's actions do besides its tools, when its way in — not the device — says
 * it (where a command is published, with which payload, where its state is read and how): shown at
 * pairing, pinned with its tools, and held to like them. Labels are unique.
 */
export const linkWiringSchema = z
  .array(wiringFieldSchema)
  .max(MAX_WIRING_FIELDS)
  .refine((fields) => new Set(fields.map((field) => field.label)).size === fields.length, 'each label once');
/** A device's wiring: its labelled fields, in the order its way in shows them. */
export type LinkWiring = z.infer<typeof linkWiringSchema>;

/** The wiring as lines to show a person (`command topic: kitchen/lamp/set`), a value quoted as JSON only when blank space would hide. */
export function wiringLines(wiring: LinkWiring | undefined): string[] {
  return (wiring ?? []).map((field) => `${field.label}: ${shown(field.value)}`);
}

/**
 * How the wiring a device has now differs from the one pinned at pairing, field by field (matched by
 * label): every difference holds the device (none adds caution). Nothing pinned, or nothing read
 * now (the device is not announced), is no difference: there is nothing to compare.
 */
export function compareWiring(pinned: LinkWiring | undefined, live: LinkWiring | undefined): DeclarationDifference[] {
  if (pinned === undefined || live === undefined) return [];
  const before = new Map(pinned.map((field) => [field.label, field.value]));
  const now = new Map(live.map((field) => [field.label, field.value]));
  const labels = [...new Set([...before.keys(), ...now.keys()])];
  return labels.flatMap((label): DeclarationDifference[] => {
    const was = before.get(label);
    const is = now.get(label);
    if (was === is) return [];
    const detail =
      was === undefined
        ? `${label}: new, ${quote(is!)}`
        : is === undefined
          ? `${label}: was ${quote(was)}, now none`
          : `${label}: was ${quote(was)}, now ${quote(is)}`;
    return [{ change: 'wiring', stronger: false, detail }];
  });
}

/** Whether two wirings say the same, order aside. */
export function sameWiring(a: LinkWiring | undefined, b: LinkWiring | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && compareWiring(a, b).length === 0;
}

/** A value as shown in a line: as is, unless it is empty or starts or ends with blank space, which a line would hide. */
function shown(value: string): string {
  return value === '' || value.trim() !== value ? JSON.stringify(value) : value;
}

function quote(value: string): string {
  return JSON.stringify(value.length > QUOTE_LIMIT ? `${value.slice(0, QUOTE_LIMIT)}…` : value);
}
