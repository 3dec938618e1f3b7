import { z } from 'zod';
import type { WayIn, WayInOptions } from './way-in.ts';

/** The option keys a person may type, in order: `profile`, then each way in's own (`unit`, `baud`, …). */
export function wayInOptionKeys(waysIn: readonly WayIn[]): string[] {
  return [...new Set(['profile', ...waysIn.flatMap((way) => typedKeys(way))])];
}

/** A way in's option keys a person types: all but those its probe returns to be kept (`{kept: true}`). */
export function typedKeys(way: WayIn): string[] {
  return Object.entries(way.optionsSchema.shape)
    .filter(([, schema]) => (schema as z.ZodType).meta()?.kept !== true)
    .map(([key]) => key);
}

/**
 * Reads options typed as text (`unit=1`, `--parity even`) against the ways in's schemas: each value
 * is checked by the schema of the way in that owns its key, and an error names the option and the
 * values it takes, both from that schema (`parity must be none, even or odd, got 'mark'`). Options
 * of a way in that needs a profile are refused without one. Keys must be among `wayInOptionKeys`.
 */
export function readWayInOptions(
  waysIn: readonly WayIn[],
  text: { profile?: string | undefined; options: Readonly<Record<string, string | undefined>> },
  nameOf: (key: string) => string = (key) => key,
): WayInOptions {
  const given = Object.entries(text.options).filter((entry): entry is [string, string] => entry[1] !== undefined);
  const options: WayInOptions = {};
  for (const way of waysIn) {
    const { shape } = way.optionsSchema;
    const typed = typedKeys(way);
    const own = given.filter(([key]) => typed.includes(key));
    if (own.length === 0) continue;
    if (text.profile === undefined && way.profileExample !== undefined)
      throw new Error(
        `${listed(Object.keys(shape), 'and')} need a ${way.label} profile (profile=${way.profileExample})`,
      );
    for (const [key, value] of own) {
      const schema = shape[key] as z.ZodType;
      // Numbers arrive as text; a value that is not a plain number stays text and fails the schema.
      const parsed = schema.safeParse(/^\d+$/.test(value) ? Number(value) : value);
      if (!parsed.success) throw new Error(`${nameOf(key)} must be ${expectedOf(schema)}, got '${value}'`);
      options[key] = parsed.data;
    }
  }
  return options;
}

/** What a schema takes, for a person: its description, else its values (`none, even or odd`). */
export function expectedOf(schema: z.ZodType): string {
  const inner = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
  if (inner.description !== undefined) return inner.description;
  if (inner instanceof z.ZodEnum) return listed(inner.options.map(String), 'or');
  if (inner instanceof z.ZodLiteral) return listed([...inner.values].map(String), 'or');
  if (inner instanceof z.ZodUnion)
    return listed(
      inner.options.flatMap((option) => (option instanceof z.ZodLiteral ? [...option.values].map(String) : [])),
      'or',
    );
  return 'a valid value';
}

/** `a, b or c`. */
function listed(items: readonly string[], conjunction: 'and' | 'or'): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`;
}
