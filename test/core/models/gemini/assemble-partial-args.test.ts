import { describe, expect, it } from 'vitest';
import { PartialArgsAssembler, parseJsonPath } from '../../../../core/models/gemini/assemble-partial-args.ts';

describe('parseJsonPath', () => {
  it('reads dotted names, indexes and quoted keys, and refuses anything else', () => {
    expect(parseJsonPath('$.operations[0].price')).toEqual(['operations', 0, 'price']);
    expect(parseJsonPath("$['font size'][2]")).toEqual(['font size', 2]);
    expect(parseJsonPath('$')).toEqual([]);
    expect(parseJsonPath('operations')).toBeUndefined();
    expect(parseJsonPath('$.a[x]')).toBeUndefined();
  });
});

describe('PartialArgsAssembler', () => {
  it('appends a string only to the piece that said it would continue', () => {
    const assembler = new PartialArgsAssembler();
    assembler.apply({ jsonPath: '$.text', stringValue: 'ab', willContinue: true });
    assembler.apply({ jsonPath: '$.text', stringValue: 'cd' });
    assembler.apply({ jsonPath: '$.text', stringValue: 'new' });
    assembler.apply({ jsonPath: '$.list[1].on', boolValue: false });
    assembler.apply({ jsonPath: '$.n', numberValue: 0 });
    assembler.apply({ jsonPath: '$.nothing', nullValue: 'NULL_VALUE' });
    expect(assembler.args).toEqual({ text: 'new', list: [undefined, { on: false }], n: 0, nothing: null });
  });
});
