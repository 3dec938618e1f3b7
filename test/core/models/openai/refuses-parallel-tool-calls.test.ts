import { describe, expect, it } from 'vitest';
import { refusesParallelToolCalls } from '../../../../core/models/openai/refuses-parallel-tool-calls.ts';

describe('refusesParallelToolCalls', () => {
  // OpenAI's reasoning models, as reported refusing the parameter (o1, o3, o3-mini, o4-mini and dated names).
  const refusing = [
    'o1',
    'o1-mini',
    'o1-preview-2024-09-12',
    'o1-2024-12-17',
    'o3',
    'o3-mini',
    'o3-mini-2025-01-31',
    'o3-pro',
    'o4-mini',
    'o4-mini-2025-04-16',
    'O3-MINI',
    'openai/o3-mini',
  ];
  const accepting = ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-5', 'omni-moderation-latest', 'o', 'qwen2.5', 'llama3.1'];

  for (const model of refusing) {
    it(`says ${model} refuses it`, () => expect(refusesParallelToolCalls(model)).toBe(true));
  }
  for (const model of accepting) {
    it(`says ${model} takes it`, () => expect(refusesParallelToolCalls(model)).toBe(false));
  }
});
