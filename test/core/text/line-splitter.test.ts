import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineSplitter } from '../../../core/text/line-splitter.ts';

describe('lineSplitter', () => {
  it('gives each whole line once, in order, however the text is cut into chunks', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string().map((text) => text.replaceAll('\n', ''))),
        fc.string().map((text) => text.replaceAll('\n', '')),
        fc.array(fc.nat()),
        (lines, tail, cuts) => {
          const text = lines.map((line) => `${line}\n`).join('') + tail;
          const at = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
          const bounds = [0, ...at, text.length];
          const chunks = bounds.slice(1).map((end, index) => text.slice(bounds[index], end));
          const seen: string[] = [];
          const feed = lineSplitter((line) => seen.push(line));
          let waiting = 0;
          for (const chunk of chunks) waiting = feed(chunk);
          expect(seen).toEqual(lines);
          expect(waiting).toBe(tail.length);
        },
      ),
    );
  });

  it('keeps an empty line as a line, and holds a line until its newline comes', () => {
    const seen: string[] = [];
    const feed = lineSplitter((line) => seen.push(line));
    expect(feed('a\n\nb')).toBe(1);
    expect(seen).toEqual(['a', '']);
    expect(feed('c\n')).toBe(0);
    expect(seen).toEqual(['a', '', 'bc']);
  });
});
