import { unsafeCharacters } from '../../../core/text/safe-text.ts';
import type { JsonSchema } from '../../../core/tools/json-schema.ts';

/** Characters of a server's own words (a JSON-RPC error, why it could not start) kept in a message. */
export const MAX_SERVER_TEXT_CHARACTERS = 2_000;

/**
 * A server's own words cut to 2,000 characters, saying how many there were: an error message may be
 * as large as a whole message (megabytes), and it is journaled, shown and sent to the model.
 */
export function cutServerText(text: string): string {
  if (text.length <= MAX_SERVER_TEXT_CHARACTERS) return text;
  return `${text.slice(0, MAX_SERVER_TEXT_CHARACTERS)}… (cut: ${text.length} characters)`;
}

/**
 * The first place in a (cut) schema where a name a call must say — a property name, a required
 * name, an enum value or a default — holds a character that would act instead of being read
 * (`safeText` would escape it), with the escapes; undefined when there is none. Descriptions are
 * escaped where they are shown; these cannot be, since calls are checked against them.
 */
export function unsafeSchemaName(schema: JsonSchema): string | undefined {
  const stack: { schema: JsonSchema; at: string }[] = [{ schema, at: 'its arguments' }];
  while (stack.length > 0) {
    const { schema: level, at } = stack.pop()!;
    const names = [
      ...Object.keys(level.properties ?? {}),
      ...(level.required ?? []),
      ...(level.enum ?? []).filter((value): value is string => typeof value === 'string'),
      ...(typeof level.default === 'string' ? [level.default] : []),
    ];
    for (const name of names) {
      const unsafe = unsafeCharacters(name);
      if (unsafe.length > 0)
        return `a name or value of ${at} holds a character that would act instead of being read (${unsafe.join(' ')})`;
    }
    for (const [name, property] of Object.entries(level.properties ?? {}))
      stack.push({ schema: property, at: `its property ${JSON.stringify(name)}` });
    if (level.items) stack.push({ schema: level.items, at: `the items of ${at}` });
  }
  return undefined;
}
