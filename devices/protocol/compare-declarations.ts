import { z } from 'zod';
import { canonicalJson } from '../../core/agent/canonical-json.ts';
import type { DeviceTool } from './frame-schema.ts';

/** What about an action (or the profile as a whole) differs from the declaration pinned at pairing. */
export const declarationChangeSchema = z.enum([
  'added',
  'removed',
  'confirm',
  'description',
  'parameters',
  'parallelSafe',
  'serial',
  'profile',
  'wiring',
]);

/** One way a live declaration differs from the pinned one, as the person is shown it. */
export const declarationDifferenceSchema = z.object({
  /** The action it is about; absent when it is about a profile's content as a whole, or its wiring. */
  action: z.string().optional(),
  change: declarationChangeSchema,
  /** True when it only adds caution (now asks before each use, no longer parallel-safe, now serial). */
  stronger: z.boolean(),
  /** In words: `unlock: no longer asks you before each use`. */
  detail: z.string(),
});
export type DeclarationDifference = z.infer<typeof declarationDifferenceSchema>;

/**
 * `same`: nothing differs. `stronger`: only more caution, applied at once. `changed`: anything else
 * (an action gone or added, a schema or description changed, `confirm` dropped, parallel-safe or
 * serial loosened): the device is not used until the person trusts it again.
 */
export type DeclarationVerdict = 'same' | 'stronger' | 'changed';

export interface DeclarationComparison {
  verdict: DeclarationVerdict;
  /** By action name (code-unit order), then in the order of `declarationChangeSchema`. */
  differences: DeclarationDifference[];
}

/** The longest quote of a device's own text in a difference (descriptions and schemas can be 2,000 characters). */
const QUOTE_LIMIT = 120;

/**
 * Compares the tools a device declares now with the ones pinned at pairing, action by action
 * (matched by name; their order does not matter). Schemas compare as canonical JSON (key order
 * aside); a `confirm` of false is the same as none.
 */
export function compareDeclarations(pinned: readonly DeviceTool[], live: readonly DeviceTool[]): DeclarationComparison {
  const before = new Map(pinned.map((tool) => [tool.name, tool]));
  const now = new Map(live.map((tool) => [tool.name, tool]));
  const names = [...new Set([...before.keys(), ...now.keys()])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const differences = names.flatMap((name) => differencesOf(name, before.get(name), now.get(name)));
  return { verdict: verdictOf(differences), differences };
}

/** The verdict a list of differences adds up to. */
export function verdictOf(differences: readonly DeclarationDifference[]): DeclarationVerdict {
  if (differences.length === 0) return 'same';
  return differences.every((difference) => difference.stronger) ? 'stronger' : 'changed';
}

function differencesOf(
  action: string,
  was: DeviceTool | undefined,
  now: DeviceTool | undefined,
): DeclarationDifference[] {
  const difference = (change: DeclarationDifference['change'], stronger: boolean, detail: string) => ({
    action,
    change,
    stronger,
    detail: `${action}: ${detail}`,
  });
  if (was === undefined) return [difference('added', false, 'a new action, not declared at pairing')];
  if (now === undefined) return [difference('removed', false, 'no longer declared')];
  const found: DeclarationDifference[] = [];
  const asked = was.confirm === true;
  if (asked !== (now.confirm === true))
    found.push(
      asked
        ? difference('confirm', false, 'no longer asks you before each use')
        : difference('confirm', true, 'now asks you before each use'),
    );
  if (was.description !== now.description)
    found.push(
      difference('description', false, `description was ${quote(was.description)}, now ${quote(now.description)}`),
    );
  const schemaWas = canonicalJson(was.parameters);
  const schemaNow = canonicalJson(now.parameters);
  if (schemaWas !== schemaNow)
    found.push(difference('parameters', false, `parameters were ${bounded(schemaWas)}, now ${bounded(schemaNow)}`));
  if (was.parallelSafe !== now.parallelSafe)
    found.push(
      now.parallelSafe
        ? difference('parallelSafe', false, 'now says it may run beside other calls (parallel-safe)')
        : difference('parallelSafe', true, 'no longer parallel-safe'),
    );
  if (was.serial !== now.serial)
    found.push(
      now.serial
        ? difference('serial', true, 'now runs alone (serial)')
        : difference('serial', false, 'no longer asks to run alone (serial)'),
    );
  return found;
}

/** A device's text in quotes (escaped as JSON, so no control character is shown raw), cut to QUOTE_LIMIT. */
function quote(text: string): string {
  return JSON.stringify(text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}…` : text);
}

function bounded(text: string): string {
  return text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}…` : text;
}
