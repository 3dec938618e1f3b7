import { describe, expect, it } from 'vitest';
import { parseCondition } from '../../../../core/plugins/sequences/parse-condition.ts';
import { ConditionError, evaluateCondition } from '../../../../core/plugins/sequences/evaluate-condition.ts';

const slots = new Map<string, unknown>([
  ['reading', { ok: true, result: { celsius: 23, label: 'hall', list: [4, 5] } }],
  ['failed', { ok: false, error: { reason: 'timeout' } }],
  ['input', { level: '3' }],
]);

function evaluate(text: string): unknown {
  const parsed = parseCondition(text);
  if (!parsed.ok) throw new Error(parsed.detail);
  return evaluateCondition(parsed.condition, slots);
}

describe('evaluateCondition', () => {
  it('reads slot paths, compares and combines (values worked out by hand)', () => {
    expect(evaluate('reading.ok && reading.result.celsius > 20')).toBe(true);
    expect(evaluate('reading.result.celsius * 2 - 6 == 40')).toBe(true);
    expect(evaluate('reading.result.celsius % 5')).toBe(3);
    expect(evaluate('-reading.result.celsius + 30')).toBe(7);
    expect(evaluate('reading.result.list[1] >= 5')).toBe(true);
    expect(evaluate('reading["result"].label + "!" === "hall!"')).toBe(true);
    expect(evaluate('!failed.ok && failed.error.reason == "timeout"')).toBe(true);
    expect(evaluate('failed.ok || reading.result.label')).toBe('hall');
  });

  it('uses strict equality, so a number never equals its string', () => {
    expect(evaluate('input.level == 3')).toBe(false);
    expect(evaluate('input.level != 3')).toBe(true);
  });

  it('short-circuits, so a guarded read of a missing result is not evaluated', () => {
    expect(evaluate('failed.ok && failed.result.celsius > 20')).toBe(false);
  });

  it('throws a ConditionError when a comparison or arithmetic gets no number', () => {
    expect(() => evaluate('failed.result.celsius > 20')).toThrow(ConditionError);
    expect(() => evaluate('reading.result.label * 2')).toThrow("'*' needs two numbers");
  });

  it('never reaches a prototype: inherited properties read as undefined', () => {
    expect(evaluate('reading.result.list.length == 2')).toBe(true);
    expect(evaluate('reading.hasOwnProperty == null')).toBe(false);
    expect(evaluate('reading.hasOwnProperty === reading.nothing')).toBe(true);
  });
});
