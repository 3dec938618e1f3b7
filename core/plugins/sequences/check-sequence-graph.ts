import type { Sequence } from './sequence-schema.ts';

/** How many `sequence:` hops a chain may have by default (A→B→C→D→E is 4 hops). */
export const DEFAULT_MAX_CALL_DEPTH = 4;

/** One problem of the call graph, with a sentence for the model. `caller` is null when the start itself is missing. */
export type SequenceGraphProblem =
  | { kind: 'missing'; caller: string | null; target: string; message: string }
  | { kind: 'cycle'; path: string[]; message: string }
  | { kind: 'depth'; path: string[]; message: string };

/** The distinct sequences a sequence calls, in the order they first appear. */
export function sequenceTargets(sequence: Sequence): string[] {
  const targets = new Set<string>();
  for (const group of sequence.groups)
    for (const call of group.calls) if (call.sequence !== undefined) targets.add(call.sequence);
  return [...targets];
}

/**
 * Walks the calls between sequences from `from` (from every sequence when omitted): every `sequence:` target must exist (missing ⇒
 * a problem naming caller and target), no cycles (the path is named, `a → b → a`), and no chain
 * longer than `maxCallDepth` hops. Empty means the sequence may run. This is where cross-sequence
 * targets are checked; saving does not require them (mutually calling sequences must be savable).
 */
export function checkSequenceGraph(options: {
  from?: string;
  sequences: readonly Sequence[];
  maxCallDepth?: number;
}): SequenceGraphProblem[] {
  const maxCallDepth = options.maxCallDepth ?? DEFAULT_MAX_CALL_DEPTH;
  const byName = new Map(options.sequences.map((sequence) => [sequence.name, sequence]));
  const problems = new Map<string, SequenceGraphProblem>();
  const add = (key: string, problem: SequenceGraphProblem): void => {
    if (!problems.has(key)) problems.set(key, problem);
  };
  if (options.from !== undefined && !byName.has(options.from)) {
    return [
      { kind: 'missing', caller: null, target: options.from, message: `there is no sequence named '${options.from}'` },
    ];
  }

  // Depth-first over call chains; a chain stops at a cycle or past the depth limit, so the walk is bounded.
  const visit = (sequence: Sequence, stack: string[]): void => {
    for (const target of sequenceTargets(sequence)) {
      const callee = byName.get(target);
      if (!callee) {
        add(`missing:${sequence.name}>${target}`, {
          kind: 'missing',
          caller: sequence.name,
          target,
          message: `sequence '${sequence.name}' calls '${target}', which does not exist`,
        });
        continue;
      }
      const start = stack.indexOf(target);
      if (start >= 0) {
        const path = [...stack.slice(start), target];
        add(`cycle:${[...new Set(path)].sort().join(',')}`, {
          kind: 'cycle',
          path,
          message: `sequences call each other in a cycle: ${path.join(' → ')}`,
        });
        continue;
      }
      const path = [...stack, target];
      if (path.length - 1 > maxCallDepth) {
        add(`depth:${path.join('>')}`, {
          kind: 'depth',
          path,
          message: `the call chain ${path.join(' → ')} is ${path.length - 1} sequence calls deep; at most ${maxCallDepth} are allowed`,
        });
        continue;
      }
      visit(callee, path);
    }
  };
  const roots = options.from !== undefined ? [options.from] : [...byName.keys()];
  for (const root of roots) visit(byName.get(root) as Sequence, [root]);
  return [...problems.values()];
}
