import { describe, expect, it } from 'vitest';
import { LineFramer } from '../../../devices/transport/line-framer.ts';

function frame(chunks: string[], maxBytes = 16): { lines: string[]; oversized: number[] } {
  const lines: string[] = [];
  const oversized: number[] = [];
  const framer = new LineFramer({
    maxBytes,
    onLine: (line) => lines.push(line),
    onOversized: (bytes) => oversized.push(bytes),
  });
  for (const chunk of chunks) framer.push(Buffer.from(chunk, 'utf8'));
  return { lines, oversized };
}

describe('LineFramer', () => {
  it('joins lines split across chunks and splits chunks holding several lines', () => {
    expect(frame(['{"a"', ':1}\n{"b":2}\n{"c', '":3}\n']).lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('strips a carriage return and ignores empty lines', () => {
    expect(frame(['one\r\n\n\r\ntwo\n']).lines).toEqual(['one', 'two']);
  });

  it('keeps an unfinished line until its newline arrives', () => {
    expect(frame(['partial']).lines).toEqual([]);
  });

  it('drops a line over the limit up to its newline, reports its size once, and goes on', () => {
    // 16-byte limit: 20 x's plus 5 more before the newline = 25 bytes dropped.
    const result = frame(['x'.repeat(20), 'xxxxx\nok\n']);
    expect(result).toEqual({ lines: ['ok'], oversized: [25] });
  });

  it('accepts a line of exactly the limit', () => {
    expect(frame(['a'.repeat(16) + '\n']).lines).toEqual(['a'.repeat(16)]);
  });

  it('counts the limit in bytes, not characters', () => {
    // 6 euro signs = 18 bytes in UTF-8, over a 16-byte limit.
    expect(frame(['€€€€€€\n'])).toEqual({ lines: [], oversized: [18] });
  });

  it('holds no more than the limit while a device streams bytes without a newline', () => {
    const framer = new LineFramer({ maxBytes: 16, onLine: () => undefined, onOversized: () => undefined });
    for (let index = 0; index < 100; index += 1) framer.push(Buffer.from('0123456789'));
    expect(framer.bufferedBytes).toBeLessThanOrEqual(17);
  });
});
