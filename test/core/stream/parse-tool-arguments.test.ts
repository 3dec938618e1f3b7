import { describe, expect, it } from 'vitest';
import { parseToolArguments } from '../../../core/stream/parse-tool-arguments.ts';
import { MAX_JSON_DEPTH } from '../../../core/text/json-nesting-exceeds.ts';

describe('parseToolArguments', () => {
  it('reads empty or blank argument text as {}', () => {
    expect(parseToolArguments('')).toEqual({ ok: true, args: {} });
    expect(parseToolArguments('  \n')).toEqual({ ok: true, args: {} });
  });

  it('reads one JSON object', () => {
    expect(parseToolArguments('{"on":true,"room":"hall"}')).toEqual({ ok: true, args: { on: true, room: 'hall' } });
  });

  it('refuses text that is not JSON, saying so', () => {
    const parsed = parseToolArguments('{"on":tru');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.detail).toMatch(/not valid JSON/);
  });

  it('refuses JSON that is not an object', () => {
    for (const text of ['[1,2]', '1', '"on"', 'null', 'true']) expect(parseToolArguments(text).ok, text).toBe(false);
  });
});

describe('parseToolArguments depth bound', () => {
  const nested = (depth: number, open = '{"a":', close = '}'): string => `${open.repeat(depth)}1${close.repeat(depth)}`;

  it(`accepts arguments nested exactly ${MAX_JSON_DEPTH} levels deep (the object itself is level 1)`, () => {
    const parsed = parseToolArguments(nested(64));
    expect(parsed.ok).toBe(true);
  });

  it('refuses arguments nested one level more, saying how deep they may go', () => {
    const parsed = parseToolArguments(nested(65));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok)
      expect(parsed.detail).toBe('the arguments are nested more than 64 levels deep; at most 64 are allowed');
  });

  it('counts arrays as levels too, and 2,500 of them never overflow the stack', () => {
    const parsed = parseToolArguments(`{"a":${nested(2_499, '[', ']')}}`);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.detail).toMatch(/more than 64 levels deep/);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = `{"text":"${'{['.repeat(100)} \\" ${'[{'.repeat(100)}"}`;
    expect(parseToolArguments(text)).toEqual({ ok: true, args: { text: `${'{['.repeat(100)} " ${'[{'.repeat(100)}` } });
  });
});

describe('parseToolArguments size bound', () => {
  it('refuses argument text over the size setting before parsing it, naming the setting and its value', () => {
    // `{"t":"…"}` is 8 bytes around the text.
    expect(parseToolArguments(`{"t":"${'x'.repeat(1_016)}"}`, { maxBytes: 1_024 }).ok).toBe(true);
    expect(parseToolArguments(`{"t":"${'x'.repeat(1_017)}"}`, { maxBytes: 1_024 })).toEqual({
      ok: false,
      detail: 'the arguments are 1,025 bytes; at most 1,024 are allowed (the setting maxToolArgumentBytes)',
    });
  });
});
