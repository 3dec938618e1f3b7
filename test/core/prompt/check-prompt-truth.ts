import type { BatchPlan } from '../../../core/batch/decide-batch-mode.ts';
import type { ToolDefinition } from '../../../core/tools/tool-definition.ts';

type Decide = (calls: readonly { name: string; tool: ToolDefinition | undefined }[]) => BatchPlan;

const declared = (name: string, declarations: Partial<ToolDefinition>): ToolDefinition => ({
  name,
  description: name,
  parameters: { type: 'object' },
  handler: () => null,
  ...declarations,
});

/**
 * The claims a prompt may make about how a reply's calls run. Each names a probe batch; the
 * scheduler's answer for that batch decides whether the prompt must make the claim (and must not
 * make it when the scheduler does otherwise). The phrases are written by hand, not taken from the
 * prompt under test.
 */
const CLAIMS: { claim: string; probe: ToolDefinition[]; whenMode: BatchPlan['mode']; phrases: RegExp[] }[] = [
  {
    claim: 'calls in one reply run in parallel',
    probe: [declared('probe_a', { parallelSafe: true }), declared('probe_b', { parallelSafe: true })],
    whenMode: 'parallel',
    phrases: [/\bin parallel\b/i, /\bone reply\b/i],
  },
  {
    claim: 'same-channel sends keep their order (exception 1)',
    probe: [
      declared('output_send__chat', { parallelSafe: true }),
      declared('output_send__chat', { parallelSafe: true }),
    ],
    whenMode: 'serial',
    phrases: [/output_send__/, /same channel/i, /\border\b/i],
  },
  {
    claim: 'one non-parallel-safe tool makes the whole reply serial (exception 2)',
    probe: [declared('probe_a', { parallelSafe: true }), declared('probe_unsafe', {})],
    whenMode: 'serial',
    phrases: [/not parallel-safe/i, /whole reply/i, /one (call )?at a time/i],
  },
  {
    claim: 'a tool that declares serial makes the whole reply serial',
    probe: [
      declared('probe_a', { parallelSafe: true }),
      declared('probe_serial', { parallelSafe: true, serial: true }),
    ],
    whenMode: 'serial',
    phrases: [/declares serial/i, /whole reply/i],
  },
];

/** Advice that holds whenever calls may run in parallel. */
const ADVICE: { claim: string; phrases: RegExp[] }[] = [
  { claim: 'do not rely on the order of calls', phrases: [/do not rely on (their|the) order/i] },
  { claim: 'dependent calls go in separate replies', phrases: [/separate repl(y|ies)/i] },
];

/**
 * Checks that a prompt says what the scheduler does: every claim the scheduler makes true is stated,
 * and none it makes false is. Returns the problems found (empty when the prompt is truthful).
 */
export function checkPromptTruth(prompt: string, decide: Decide): string[] {
  const problems: string[] = [];
  let anyParallel = false;
  for (const { claim, probe, whenMode, phrases } of CLAIMS) {
    const mode = decide(probe.map((tool) => ({ name: tool.name, tool }))).mode;
    if (mode === 'parallel') anyParallel = true;
    const missing = phrases.filter((phrase) => !phrase.test(prompt));
    if (mode === whenMode && missing.length > 0)
      problems.push(`the prompt does not say that ${claim} (missing ${missing.join(', ')})`);
    if (mode !== whenMode && missing.length === 0)
      problems.push(`the prompt says that ${claim}, but the scheduler runs that batch ${mode}`);
  }
  if (anyParallel) {
    for (const { claim, phrases } of ADVICE) {
      if (!phrases.every((phrase) => phrase.test(prompt))) problems.push(`the prompt does not say that ${claim}`);
    }
  }
  return problems;
}
