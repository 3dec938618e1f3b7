import { describe, expect, it } from 'vitest';
import { toolExecutionSection } from '../../../core/prompt/tool-execution-section.ts';
import { assemblePrompt } from '../../../core/prompt/assemble-prompt.ts';
import { decideBatchMode } from '../../../core/batch/decide-batch-mode.ts';
import { checkPromptTruth } from './check-prompt-truth.ts';

describe('the truthful prompt', () => {
  it('says what the scheduler does: parallel, order not relied on, separate replies, and both exceptions', () => {
    expect(checkPromptTruth(toolExecutionSection().text, decideBatchMode)).toEqual([]);
  });

  it('is part of every assembled system prompt', () => {
    const { system } = assemblePrompt({ plugins: [], persona: 'You are a test.' });
    expect(checkPromptTruth(system, decideBatchMode)).toEqual([]);
  });

  it('fails the check when a prompt says "parallel" without the exceptions', () => {
    const lying =
      'All tool calls in one reply run in parallel. Do not rely on their order; put dependent calls in a separate reply.';
    const problems = checkPromptTruth(lying, decideBatchMode);
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/same-channel sends keep their order/);
    expect(problems.join('\n')).toMatch(/non-parallel-safe tool makes the whole reply serial/);
  });

  it('fails the check when a prompt leaves out one exception', () => {
    const text = toolExecutionSection()
      .text.split('\n')
      .filter((line) => !line.startsWith('- Exception 1'))
      .join('\n');
    expect(checkPromptTruth(text, decideBatchMode)).toHaveLength(1);
  });

  it('fails the check when a prompt says "parallel" without the advice on order', () => {
    const text = toolExecutionSection()
      .text.split('\n')
      .filter((line) => !line.startsWith('- Do not rely'))
      .join('\n');
    expect(checkPromptTruth(text, decideBatchMode)).toEqual([
      'the prompt does not say that do not rely on the order of calls',
      'the prompt does not say that dependent calls go in separate replies',
    ]);
  });

  it('fails the real prompt against a scheduler that never runs in parallel (the prompt would be lying)', () => {
    const alwaysSerial = () => ({ mode: 'serial' as const, reason: 'serial: always' });
    expect(checkPromptTruth(toolExecutionSection().text, alwaysSerial)).toEqual([
      'the prompt says that calls in one reply run in parallel, but the scheduler runs that batch serial',
    ]);
  });

  it('fails the real prompt against a scheduler that ignores output channels', () => {
    const ignoresChannels: typeof decideBatchMode = (calls) =>
      calls.length > 1 && calls.every((item) => item.tool?.parallelSafe && !item.tool.serial)
        ? { mode: 'parallel', reason: 'parallel' }
        : { mode: 'serial', reason: 'serial' };
    expect(checkPromptTruth(toolExecutionSection().text, ignoresChannels)).toHaveLength(1);
  });
});
