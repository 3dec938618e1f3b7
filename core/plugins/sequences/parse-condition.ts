import jsep from 'jsep';
import { FORBIDDEN_PROPERTY_NAMES } from './read-slot-path.ts';

/** The arithmetic and comparison operators a condition may use (no bitwise, no `??`). */
export const CONDITION_BINARY_OPERATORS = [
  '==',
  '!=',
  '===',
  '!==',
  '<',
  '>',
  '<=',
  '>=',
  '+',
  '-',
  '*',
  '/',
  '%',
] as const;
export type ConditionBinaryOperator = (typeof CONDITION_BINARY_OPERATORS)[number];

/**
 * A condition as the evaluator sees it: only the allowed constructs exist in this type, so a
 * refused construct cannot reach evaluation. `path` segments start with a slot name.
 */
export type ConditionNode =
  | { kind: 'literal'; value: string | number | boolean | null }
  | { kind: 'path'; segments: [string, ...(string | number)[]]; text: string }
  | { kind: 'not'; operand: ConditionNode }
  | { kind: 'negate'; operand: ConditionNode }
  | { kind: 'logical'; operator: '&&' | '||'; left: ConditionNode; right: ConditionNode }
  | { kind: 'binary'; operator: ConditionBinaryOperator; left: ConditionNode; right: ConditionNode };

/** A parsed condition and the slots it reads, or why it was refused (a sentence for the model). */
export type ConditionParse =
  { ok: true; condition: ConditionNode; slotsRead: string[] } | { ok: false; detail: string };

class RefusedConstruct extends Error {}

/**
 * Parses a `when` expression with jsep and keeps only literals, slot paths (member access),
 * comparison, `&&`/`||`/`!` and arithmetic. Function calls, `this`, assignment, prototype
 * access (`__proto__`, `constructor`, `prototype`), arrays, `?:` and bitwise operators are refused.
 */
export function parseCondition(text: string): ConditionParse {
  let tree: jsep.Expression;
  try {
    tree = jsep(text);
  } catch (error) {
    return { ok: false, detail: `the condition is not a valid expression: ${(error as Error).message}` };
  }
  try {
    const slotsRead = new Set<string>();
    const condition = convert(tree, slotsRead);
    return { ok: true, condition, slotsRead: [...slotsRead] };
  } catch (error) {
    if (error instanceof RefusedConstruct) return { ok: false, detail: error.message };
    throw error;
  }
}

function refuse(message: string): never {
  throw new RefusedConstruct(message);
}

function convert(node: jsep.Expression, slotsRead: Set<string>): ConditionNode {
  switch (node.type) {
    case 'Literal': {
      const value = (node as jsep.Literal).value;
      if (value !== null && typeof value === 'object')
        refuse('only string, number, boolean and null literals are allowed in a condition');
      return { kind: 'literal', value };
    }
    case 'Identifier':
    case 'MemberExpression': {
      const segments = pathOf(node);
      slotsRead.add(segments[0]);
      return { kind: 'path', segments, text: segments.join('.') };
    }
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      if (unary.operator === '!') return { kind: 'not', operand: convert(unary.argument, slotsRead) };
      if (unary.operator === '-') return { kind: 'negate', operand: convert(unary.argument, slotsRead) };
      return refuse(`the operator '${unary.operator}' is not allowed in a condition (use !, -, comparison, && or ||)`);
    }
    case 'BinaryExpression': {
      const binary = node as jsep.BinaryExpression;
      const left = convert(binary.left, slotsRead);
      const right = convert(binary.right, slotsRead);
      if (binary.operator === '&&' || binary.operator === '||')
        return { kind: 'logical', operator: binary.operator, left, right };
      if ((CONDITION_BINARY_OPERATORS as readonly string[]).includes(binary.operator)) {
        return { kind: 'binary', operator: binary.operator as ConditionBinaryOperator, left, right };
      }
      return refuse(
        `the operator '${binary.operator}' is not allowed in a condition (allowed: ${CONDITION_BINARY_OPERATORS.join(' ')} && || !)`,
      );
    }
    case 'CallExpression':
      return refuse('function calls are not allowed in a condition');
    case 'ThisExpression':
      return refuse("'this' is not allowed in a condition; name a slot instead");
    case 'Compound':
      return refuse(
        'a condition is one expression (found several parts: a comma, or a keyword such as typeof or in, which are not allowed)',
      );
    default:
      return refuse(`${node.type} is not allowed in a condition`);
  }
}

/** A member chain rooted at a slot name: `reading.result.celsius`, `list[0]`, `a["b"]`. */
function pathOf(node: jsep.Expression): [string, ...(string | number)[]] {
  if (node.type === 'Identifier') {
    const name = (node as jsep.Identifier).name;
    checkPropertyName(name);
    return [name];
  }
  if (node.type === 'ThisExpression') refuse("'this' is not allowed in a condition; name a slot instead");
  if (node.type !== 'MemberExpression')
    refuse('member access is only allowed on slot paths (like reading.result.celsius)');
  const member = node as jsep.MemberExpression;
  let key: string | number;
  if (!member.computed && member.property.type === 'Identifier') key = (member.property as jsep.Identifier).name;
  else if (
    member.property.type === 'Literal' &&
    ['string', 'number'].includes(typeof (member.property as jsep.Literal).value)
  ) {
    key = (member.property as jsep.Literal).value as string | number;
  } else refuse('a computed member access must use a literal key (like list[0] or a["b"])');
  checkPropertyName(String(key));
  return [...pathOf(member.object), key];
}

function checkPropertyName(name: string): void {
  if (FORBIDDEN_PROPERTY_NAMES.includes(name)) refuse(`prototype access ('${name}') is not allowed in a condition`);
}
