import { z } from 'zod';

/** Lower-case words joined by `_` (`morning_routine`): the name a sequence is saved and called by. */
export const SEQUENCE_NAME_PATTERN = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/** A slot name is an identifier that conditions read directly (`reading.ok`), so lower-case snake. */
export const SLOT_NAME_PATTERN = /^[a-z][a-z0-9_]*$/;

/**
 * The slot every sequence may read without writing it: the arguments it was run with (`seq_run`'s
 * `input`, or the `args` of the `sequence:` call that runs it as a nested sequence).
 */
export const INPUT_SLOT = 'input';

/** Names a call may not use as its slot: the input slot and the literals of the expression syntax. */
export const RESERVED_SLOT_NAMES: readonly string[] = [INPUT_SLOT, 'true', 'false', 'null', 'this', 'undefined'];

/** One call of a group: exactly one of `tool` / `sequence` (checked by `validateSequence`). */
export interface SequenceCall {
  tool?: string;
  sequence?: string;
  /** Arguments; `{ "$slot": "reading.result.celsius" }` anywhere in the tree reads a slot. */
  args?: Record<string, unknown>;
  /** Where the outcome `{ ok, result?, error? }` lands for later groups to read. */
  slot?: string;
  /** A condition over slots; false (or falsy) skips the call. */
  when?: string;
}

/** A group: its calls run concurrently; groups run one after another. */
export interface SequenceGroup {
  id: string;
  calls: SequenceCall[];
}

/** A saved tool program (docs/architecture.md, "Sequences"). Plain JSON, as stored. */
export interface Sequence {
  name: string;
  description: string;
  groups: SequenceGroup[];
}

const callSchema = z.strictObject({
  tool: z.string().min(1).max(200).optional(),
  sequence: z.string().min(1).max(100).optional(),
  args: z.record(z.string(), z.unknown()).optional(),
  slot: z
    .string()
    .regex(SLOT_NAME_PATTERN, 'must be lower-case letters, digits and _, starting with a letter')
    .max(64)
    .optional(),
  when: z.string().min(1).max(1000).optional(),
});

const groupSchema = z.strictObject({
  id: z.string().min(1).max(64),
  calls: z.array(callSchema).min(1).max(32),
});

/**
 * The shape of a sequence (types, sizes, names). The rules that span calls — one of tool/sequence,
 * unique ids, slot order, conditions, refused tools — are `validateSequence`'s.
 */
export const sequenceSchema = z.strictObject({
  name: z.string().regex(SEQUENCE_NAME_PATTERN, 'must be lower-case words joined by _ (e.g. morning_routine)').max(100),
  description: z.string().min(1).max(2000),
  groups: z.array(groupSchema).min(1).max(50),
});

/** A field path as the kernel writes it (`groups[0].calls[1].when`). */
export function fieldPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text;
}
