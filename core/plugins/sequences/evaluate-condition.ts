import type { ConditionNode } from './parse-condition.ts';
import { readSlotPath, type SlotValues } from './read-slot-path.ts';

/** A condition that could not be evaluated (e.g. `reading.result.celsius > 20` when there is no result). */
export class ConditionError extends Error {
  override readonly name = 'ConditionError';
}

/**
 * Evaluates a parsed condition over the slots of a run. `==`/`===` (and `!=`/`!==`) are strict
 * equality, so no coercion surprises; `<`, `>`, arithmetic need numbers (or two strings for
 * `<`/`+`) and throw `ConditionError` otherwise; `&&`/`||` short-circuit as in JavaScript.
 */
export function evaluateCondition(node: ConditionNode, slots: SlotValues): unknown {
  switch (node.kind) {
    case 'literal':
      return node.value;
    case 'path':
      return readSlotPath(slots, node.segments.map(String));
    case 'not':
      return !evaluateCondition(node.operand, slots);
    case 'negate': {
      const value = evaluateCondition(node.operand, slots);
      if (typeof value !== 'number') throw new ConditionError(`'-' needs a number, got ${describe(value)}`);
      return -value;
    }
    case 'logical': {
      const left = evaluateCondition(node.left, slots);
      if (node.operator === '&&') return left ? evaluateCondition(node.right, slots) : left;
      return left ? left : evaluateCondition(node.right, slots);
    }
    case 'binary':
      return binary(node.operator, evaluateCondition(node.left, slots), evaluateCondition(node.right, slots));
  }
}

function binary(
  operator: Extract<ConditionNode, { kind: 'binary' }>['operator'],
  left: unknown,
  right: unknown,
): unknown {
  switch (operator) {
    case '==':
    case '===':
      return left === right;
    case '!=':
    case '!==':
      return left !== right;
    case '+':
      if (typeof left === 'string' && typeof right === 'string') return left + right;
      return numbers(operator, left, right, (a, b) => a + b);
    case '-':
      return numbers(operator, left, right, (a, b) => a - b);
    case '*':
      return numbers(operator, left, right, (a, b) => a * b);
    case '/':
      return numbers(operator, left, right, (a, b) => a / b);
    case '%':
      return numbers(operator, left, right, (a, b) => a % b);
    case '<':
    case '>':
    case '<=':
    case '>=':
      return compare(operator, left, right);
  }
}

function numbers(operator: string, left: unknown, right: unknown, apply: (a: number, b: number) => number): number {
  if (typeof left !== 'number' || typeof right !== 'number') {
    throw new ConditionError(`'${operator}' needs two numbers, got ${describe(left)} and ${describe(right)}`);
  }
  return apply(left, right);
}

function compare(operator: '<' | '>' | '<=' | '>=', left: unknown, right: unknown): boolean {
  const comparable =
    (typeof left === 'number' && typeof right === 'number') || (typeof left === 'string' && typeof right === 'string');
  if (!comparable)
    throw new ConditionError(
      `'${operator}' needs two numbers or two strings, got ${describe(left)} and ${describe(right)}`,
    );
  const a = left as number | string;
  const b = right as number | string;
  if (operator === '<') return a < b;
  if (operator === '>') return a > b;
  if (operator === '<=') return a <= b;
  return a >= b;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing (undefined)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${JSON.stringify(value)}`;
}
