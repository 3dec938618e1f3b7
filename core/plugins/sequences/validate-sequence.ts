import { fieldPath, INPUT_SLOT, RESERVED_SLOT_NAMES, sequenceSchema, type Sequence } from './sequence-schema.ts';
import { parseCondition } from './parse-condition.ts';
import { collectSlotReferences } from './slot-reference.ts';
import { refusedInSequence } from './refused-in-sequence.ts';

/** One reason a sequence cannot be saved, naming the field (`groups[1].calls[0].when`). */
export interface SequenceProblem {
  field: string;
  reason: 'required' | 'type' | 'unauthorized';
  detail: string;
}

export type SequenceValidation = { ok: true; sequence: Sequence } | { ok: false; problems: SequenceProblem[] };

/**
 * Checks a sequence at save time: its shape (zod), exactly one of tool/sequence per call, unique
 * group ids, each slot written once, slots read only after the group that writes them, valid
 * conditions, no refused tools. Targets of `sequence:` calls are NOT required to exist, so two
 * sequences that call each other can both be saved; `checkSequenceGraph` catches what is missing.
 */
export function validateSequence(
  input: unknown,
  options: {
    describeTool?: (name: string) => { name: string; outputChannel?: string; sequenceRefusal?: string } | undefined;
  } = {},
): SequenceValidation {
  const parsed = sequenceSchema.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => {
        const field = fieldPath(issue.path) || 'sequence';
        return {
          field,
          reason: valueAt(input, issue.path) === undefined ? 'required' : 'type',
          detail: `${field}: ${issue.message}`,
        };
      }),
    };
  }
  const sequence = parsed.data as Sequence;
  const problems = [...checkGroupIds(sequence), ...checkCalls(sequence, options.describeTool), ...checkSlots(sequence)];
  return problems.length === 0 ? { ok: true, sequence } : { ok: false, problems };
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function checkGroupIds(sequence: Sequence): SequenceProblem[] {
  const seen = new Map<string, number>();
  const problems: SequenceProblem[] = [];
  sequence.groups.forEach((group, index) => {
    const first = seen.get(group.id);
    if (first === undefined) seen.set(group.id, index);
    else
      problems.push({
        field: `groups[${index}].id`,
        reason: 'type',
        detail: `groups[${index}].id: the group id '${group.id}' is already used by groups[${first}]; group ids must be unique`,
      });
  });
  return problems;
}

function checkCalls(
  sequence: Sequence,
  describeTool:
    ((name: string) => { name: string; outputChannel?: string; sequenceRefusal?: string } | undefined) | undefined,
): SequenceProblem[] {
  const problems: SequenceProblem[] = [];
  sequence.groups.forEach((group, groupIndex) =>
    group.calls.forEach((call, callIndex) => {
      const at = `groups[${groupIndex}].calls[${callIndex}]`;
      if (call.tool === undefined && call.sequence === undefined) {
        problems.push({
          field: `${at}.tool`,
          reason: 'required',
          detail: `${at}: a call names a tool ("tool") or a sequence ("sequence")`,
        });
      } else if (call.tool !== undefined && call.sequence !== undefined) {
        problems.push({ field: at, reason: 'type', detail: `${at}: a call names a tool or a sequence, not both` });
      }
      if (call.tool !== undefined) {
        const refusal = refusedInSequence(describeTool?.(call.tool) ?? { name: call.tool });
        if (refusal) problems.push({ field: `${at}.tool`, reason: 'unauthorized', detail: `${at}.tool: ${refusal}` });
      }
      if (call.slot !== undefined && RESERVED_SLOT_NAMES.includes(call.slot)) {
        problems.push({
          field: `${at}.slot`,
          reason: 'type',
          detail: `${at}.slot: '${call.slot}' is reserved; choose another slot name`,
        });
      }
    }),
  );
  return problems;
}

/** Slots: written once; read (by args or `when`) only in a group after the one that writes them. */
function checkSlots(sequence: Sequence): SequenceProblem[] {
  const problems: SequenceProblem[] = [];
  const writer = new Map<string, { group: number; field: string }>();
  sequence.groups.forEach((group, groupIndex) =>
    group.calls.forEach((call, callIndex) => {
      if (call.slot === undefined) return;
      const field = `groups[${groupIndex}].calls[${callIndex}].slot`;
      const first = writer.get(call.slot);
      if (first)
        problems.push({
          field,
          reason: 'type',
          detail: `${field}: the slot '${call.slot}' is already written by ${first.field}; each slot is written once`,
        });
      else writer.set(call.slot, { group: groupIndex, field });
    }),
  );
  const checkRead = (slot: string, groupIndex: number, field: string): void => {
    if (slot === INPUT_SLOT) return;
    const written = writer.get(slot);
    const group = sequence.groups[groupIndex]?.id ?? '';
    let why: string | null = null;
    if (!written) why = `no call writes the slot '${slot}'`;
    else if (written.group === groupIndex)
      why = `the slot '${slot}' is written in the same group '${group}', whose calls run in parallel; read it in a later group`;
    else if (written.group > groupIndex)
      why = `the slot '${slot}' is read too early: it is written by group '${sequence.groups[written.group]?.id ?? ''}', which runs after group '${group}'`;
    if (why) problems.push({ field, reason: 'type', detail: `${field}: ${why}` });
  };
  sequence.groups.forEach((group, groupIndex) =>
    group.calls.forEach((call, callIndex) => {
      const at = `groups[${groupIndex}].calls[${callIndex}]`;
      const { references, problems: markers } = collectSlotReferences(call.args ?? {}, `${at}.args`);
      for (const marker of markers) problems.push({ ...marker, reason: 'type' });
      for (const reference of references) checkRead(reference.segments[0] ?? '', groupIndex, reference.field);
      if (call.when === undefined) return;
      const condition = parseCondition(call.when);
      if (!condition.ok) {
        problems.push({ field: `${at}.when`, reason: 'type', detail: `${at}.when: ${condition.detail}` });
        return;
      }
      for (const slot of condition.slotsRead) checkRead(slot, groupIndex, `${at}.when`);
    }),
  );
  return problems;
}
