import { describe, expect, it } from 'vitest';
import { utf8Length } from '../../../core/text/utf8-length.ts';

describe('utf8Length', () => {
  it('counts one to four bytes a character, as UTF-8 writes them', () => {
    // a: 1 byte, é (U+00E9): 2, € (U+20AC): 3, 😀 (U+1F600, a surrogate pair): 4.
    expect(utf8Length('a')).toBe(1);
    expect(utf8Length('é')).toBe(2);
    expect(utf8Length('€')).toBe(3);
    expect(utf8Length('😀')).toBe(4);
    expect(utf8Length('aé€😀')).toBe(10);
    expect(utf8Length('')).toBe(0);
  });
});
