import { describe, expect, it } from 'vitest';
import { parseToolArguments } from '../../../core/stream/parse-tool-arguments.ts';

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
