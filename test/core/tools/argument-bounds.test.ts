import { describe, expect, it } from 'vitest';
import {
  argumentBoundError,
  argumentBoundProblem,
  boundedArguments,
  boundedArgumentsText,
} from '../../../core/tools/argument-bounds.ts';
import { measureJson } from '../../../core/tools/measure-json.ts';
import { MAX_JSON_DEPTH } from '../../../core/text/json-nesting-exceeds.ts';

/** `{"a":{"a":…1…}}` as a value, built with a loop (a recursive builder would overflow first). */
function nestedObjects(depth: number): Record<string, unknown> {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = { a: value };
  return value as Record<string, unknown>;
}

describe('measureJson', () => {
  it('counts the UTF-8 bytes of the JSON text JSON.stringify writes', () => {
    // `{"a":"é"}`: { " a " : " é " } = 1 + 3 + 1 + (1 + 2 + 1) + 1 = 10 bytes.
    expect(measureJson({ a: 'é' }, { maxDepth: 64 }).bytes).toBe(10);
    // `{"n":[1,null,true],"s":"\n"}`: 1 + 4 + 13 + 1 + 4 + 4 + 1 = 28 bytes (undefined skipped, NaN is null).
    expect(measureJson({ n: [1, Number.NaN, true], s: '\n', gone: undefined }, { maxDepth: 64 }).bytes).toBe(28);
    // A surrogate pair is one four-byte character: `["😀"]` = 1 + 1 + 4 + 1 + 1 = 8.
    expect(measureJson(['😀'], { maxDepth: 64 }).bytes).toBe(8);
  });

  it('stops at the first level past maxDepth, 60,000 levels included, without recursion', () => {
    const measured = measureJson(nestedObjects(60_000), { maxDepth: MAX_JSON_DEPTH, previewLength: 12 });
    expect(measured).toMatchObject({ tooDeep: true, tooLarge: false, preview: '{"a":{"a":{"' });
    expect(measureJson(nestedObjects(64), { maxDepth: 64 }).tooDeep).toBe(false);
    expect(measureJson(nestedObjects(65), { maxDepth: 64 }).tooDeep).toBe(true);
  });

  it('stops once the text passes maxBytes', () => {
    // `{"t":"xxxx"}` is 12 bytes.
    expect(measureJson({ t: 'xxxx' }, { maxDepth: 64, maxBytes: 12 }).tooLarge).toBe(false);
    expect(measureJson({ t: 'xxxxx' }, { maxDepth: 64, maxBytes: 12 }).tooLarge).toBe(true);
  });
});

describe('argument bounds', () => {
  it('refuses arguments nested more than 64 levels as invalid_json naming the bound', () => {
    const breach = argumentBoundProblem(nestedObjects(65), { maxBytes: 65_536 });
    expect(breach).toEqual({
      bound: 'depth',
      problem: 'the arguments are nested more than 64 levels deep; at most 64 are allowed',
    });
    expect(argumentBoundError('lamp__set', breach!).toData()).toEqual({
      reason: 'invalid_json',
      detail: 'lamp__set: the arguments are nested more than 64 levels deep; at most 64 are allowed',
      hint: 'Call lamp__set again with its arguments as one JSON object nested at most 64 levels deep.',
    });
  });

  it('refuses arguments over the size setting, naming the setting and its value', () => {
    // `{"t":"…"}` is 8 bytes around the text: 1,016 x's are 1,024 bytes, one more passes the bound.
    expect(argumentBoundProblem({ t: 'x'.repeat(1_016) }, { maxBytes: 1_024 })).toBeUndefined();
    expect(argumentBoundProblem({ t: 'x'.repeat(1_017) }, { maxBytes: 1_024 })).toEqual({
      bound: 'size',
      problem:
        'the arguments take more than 1,024 bytes as JSON; at most 1,024 are allowed (the setting maxToolArgumentBytes)',
    });
    // Without a size bound only the depth applies.
    expect(argumentBoundProblem({ t: 'x'.repeat(100_000) }, undefined)).toBeUndefined();
  });

  it('keeps a bounded stand-in of arguments that break a bound, and the arguments themselves otherwise', () => {
    const small = { on: true };
    expect(boundedArguments(small, { maxBytes: 1_024 })).toBe(small);
    const standIn = boundedArguments({ t: 'x'.repeat(250_000) }, { maxBytes: 1_024 });
    expect(standIn).toEqual({
      $notKept:
        'the arguments take more than 1,024 bytes as JSON; at most 1,024 are allowed (the setting maxToolArgumentBytes)',
      $preview: `{"t":"${'x'.repeat(194)}…`,
    });
    // The stand-in keeps both bounds itself, so bounding it again changes nothing.
    expect(boundedArguments(standIn, { maxBytes: 1_024 })).toBe(standIn);
  });

  it('cuts argument text over the size bound to a preview that says why', () => {
    expect(boundedArgumentsText('{"t":1}', { maxBytes: 1_024 })).toBe('{"t":1}');
    const cut = boundedArgumentsText(`{"t":"${'x'.repeat(250_000)}"}`, { maxBytes: 1_024 });
    expect(cut).toBe(
      `{"t":"${'x'.repeat(194)}… (not kept: the arguments are 250,008 bytes; at most 1,024 are allowed (the setting maxToolArgumentBytes))`,
    );
    expect(boundedArgumentsText(cut, { maxBytes: 1_024 })).toBe(cut);
  });
});
