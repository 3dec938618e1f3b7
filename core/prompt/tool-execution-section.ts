import type { PromptSection } from '../plugins/plugin.ts';

/**
 * The truthful description of how the scheduler runs a reply's calls (seed 001, phase 2.5). It
 * states exactly the rule in `decideBatchMode`: parallel by default, with both exceptions.
 */
export function toolExecutionSection(): PromptSection {
  return {
    id: 'tool-execution',
    order: 20,
    text: [
      '## How your tool calls run',
      '- All tool calls in one reply run in parallel (at the same time), not one after another.',
      '- Do not rely on their order. If a call needs the result of another call, make the first call, wait for its result, and make the dependent call in a separate reply.',
      '- Exception 1: several output_send__<channel> calls to the same channel in one reply are delivered in the order you wrote them (the whole reply then runs one call at a time).',
      '- Exception 2: if any tool in the reply is not parallel-safe (or declares serial), the whole reply runs one call at a time, in the order you wrote the calls.',
    ].join('\n'),
  };
}
