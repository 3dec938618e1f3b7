import type { PromptSection } from '../plugin.ts';
import { REFUSED_IN_SEQUENCE } from './refused-in-sequence.ts';
import { DEFAULT_SEQUENCE_BUDGET, describeBudget, type SequenceBudget } from './sequence-budget.ts';

/**
 * What the model is told about sequences. It states exactly what `runSequence` does: groups in
 * order, a group's calls in parallel, slots read only by later groups, conditions, and refusals.
 */
export function sequencesPromptSection(options: { maxCallDepth: number; budget?: SequenceBudget }): PromptSection {
  const budget = options.budget ?? DEFAULT_SEQUENCE_BUDGET;
  const refused = [...new Set(REFUSED_IN_SEQUENCE.map((entry) => entry.pattern))].join(', ');
  return {
    id: 'sequences',
    order: 60,
    text: [
      '## Sequences',
      'A sequence is a saved tool program (seq_save, seq_list, seq_show, seq_delete, seq_check, seq_run).',
      '- Its groups run one after another; the calls inside one group run in parallel, so a call never depends on another call of its own group.',
      '- A call with "slot" stores its outcome as { ok, result?, error? }. Later groups read it: in args as {"$slot": "reading.result.celsius"}, in a "when" condition as reading.ok && reading.result.celsius > 20. The "input" slot holds the input the sequence was run with.',
      '- "when" allows slot paths, literals, comparison (== and != are strict), && || !, and + - * / %; no function calls. A false condition skips the call. A failed call does not stop the sequence.',
      `- A call may run another sequence with "sequence" instead of "tool"; chains may be ${options.maxCallDepth} sequence calls deep and may not loop. seq_check reports missing targets and loops; seq_run refuses to start while there are any.`,
      `- One run (nested sequences included) may reach at most ${describeBudget({ budget: 'calls', limit: budget.maxCalls })} (a call skipped by its condition counts), keep ${describeBudget({ budget: 'result_bytes', limit: budget.maxResultBytes })} and take ${describeBudget({ budget: 'wall_time', limit: budget.wallTimeMs })}; past any of these seq_run stops it and fails, and the calls that already ran have taken effect.`,
      `- Refused inside a sequence: tools that message the outside world (any tool with an output channel), spawn agents, change the plugin table, or run a whole sequence (${refused}). Calls still pass the same permission checks as your own calls.`,
    ].join('\n'),
  };
}
