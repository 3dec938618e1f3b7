import { describe, expect, it } from 'vitest';
import { assertToolOrderShape, orderTools, TOOL_ORDER_REST, ToolOrderError } from '../../../core/tools/order-tools.ts';

const named = (...names: string[]): { name: string }[] => names.map((name) => ({ name }));
const namesOf = (tools: readonly { name: string }[]): string[] => tools.map((tool) => tool.name);

describe('orderTools without toolOrder', () => {
  it('sorts by UTF-16 code unit: upper case before "_" before lower case, no locale', () => {
    // Code units: '1'=0x31 '9'=0x39 'B'=0x42 'Z'=0x5A '_'=0x5F 'a'=0x61 'b'=0x62.
    // A locale sort would give a, aB, a_b, ab, b, B, Z… instead.
    const tools = named('b', 'a_b', 'Z', 'ab', '_x', 'aB', 'a', 'B', '9', '10');
    expect(namesOf(orderTools(tools))).toEqual(['10', '9', 'B', 'Z', '_x', 'a', 'aB', 'a_b', 'ab', 'b']);
  });

  it('sorts non-ASCII names by code unit, not by code point or accent folding', () => {
    // 'e'=0x65, 'é'=0xE9, '𝒜' = U+1D49C = surrogates D835 DC9C, 'ﬀ' = U+FB00.
    // By code unit D835 < FB00, so '𝒜' comes before 'ﬀ' although its code point is larger.
    const tools = named('ﬀ', 'é', '𝒜', 'f', 'e');
    expect(namesOf(orderTools(tools))).toEqual(['e', 'f', 'é', '𝒜', 'ﬀ']);
  });

  it('does not change the input list', () => {
    const tools = named('b', 'a');
    orderTools(tools);
    expect(namesOf(tools)).toEqual(['b', 'a']);
  });

  it('keeps every tool, including two tools sharing a name', () => {
    const tools = [
      { name: 'b', from: 1 },
      { name: 'a', from: 2 },
      { name: 'b', from: 3 },
    ];
    expect(orderTools(tools).map((tool) => tool.name)).toEqual(['a', 'b', 'b']);
  });
});

describe('orderTools with toolOrder', () => {
  const five = named('d', 'c', 'b', 'a', 'e');

  it('puts listed tools in their listed places and unlisted ones at the rest entry, lexicographic', () => {
    expect(namesOf(orderTools(five, ['c', TOOL_ORDER_REST, 'a']))).toEqual(['c', 'b', 'd', 'e', 'a']);
  });

  it('puts the unlisted tools first when the rest entry comes first', () => {
    expect(namesOf(orderTools(five, [TOOL_ORDER_REST, 'b']))).toEqual(['a', 'c', 'd', 'e', 'b']);
  });

  it('puts the unlisted tools last when the rest entry comes last', () => {
    expect(namesOf(orderTools(five, ['e', 'd', TOOL_ORDER_REST]))).toEqual(['e', 'd', 'a', 'b', 'c']);
  });

  it('is plain lexicographic when the list holds only the rest entry', () => {
    expect(namesOf(orderTools(five, [TOOL_ORDER_REST]))).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('leaves the rest entry empty when every tool is listed', () => {
    expect(namesOf(orderTools(named('x', 'y'), ['y', TOOL_ORDER_REST, 'x']))).toEqual(['y', 'x']);
  });

  it('rejects a listed name that no tool has, naming it', () => {
    expect(() => orderTools(five, ['c', TOOL_ORDER_REST, 'lamp__set'])).toThrow(ToolOrderError);
    expect(() => orderTools(five, ['c', TOOL_ORDER_REST, 'lamp__set'])).toThrow(/'lamp__set'/);
  });

  it('rejects a tool named like the rest entry, with or without toolOrder', () => {
    const tools = named('a', TOOL_ORDER_REST);
    expect(() => orderTools(tools)).toThrow(ToolOrderError);
    expect(() => orderTools(tools, [TOOL_ORDER_REST])).toThrow(/reserved/);
  });

  it('rejects a bad shape at ordering time too', () => {
    expect(() => orderTools(five, ['a'])).toThrow(ToolOrderError);
  });
});

describe('assertToolOrderShape', () => {
  it("uses the literal rest entry '<unlisted-tools>'", () => {
    expect(TOOL_ORDER_REST).toBe('<unlisted-tools>');
  });

  it('accepts exactly one rest entry and distinct names', () => {
    expect(() => assertToolOrderShape(['a', TOOL_ORDER_REST, 'b'])).not.toThrow();
    expect(() => assertToolOrderShape([TOOL_ORDER_REST])).not.toThrow();
  });

  it('rejects a list without the rest entry, the empty list included', () => {
    expect(() => assertToolOrderShape([])).toThrow(ToolOrderError);
    expect(() => assertToolOrderShape(['a', 'b'])).toThrow(/rest entry/);
  });

  it('rejects two rest entries', () => {
    expect(() => assertToolOrderShape([TOOL_ORDER_REST, 'a', TOOL_ORDER_REST])).toThrow(ToolOrderError);
  });

  it('rejects a name listed twice, naming it', () => {
    expect(() => assertToolOrderShape(['a', TOOL_ORDER_REST, 'a'])).toThrow(/'a' twice/);
  });

  it('does not check that listed tools exist (that is assembly time)', () => {
    expect(() => assertToolOrderShape(['not_registered_yet', TOOL_ORDER_REST])).not.toThrow();
  });
});
