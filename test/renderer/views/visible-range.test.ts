import { describe, expect, it } from 'vitest';
import { itemAt, offsetOf, visibleRange } from '../../../renderer/views/visible-range.ts';

// Heights of five turns (px): they begin at 0, 100, 300, 350 and 750, and end at 1000.
const sizes = [100, 200, 50, 400, 250];

describe('visibleRange', () => {
  it('draws the items that meet the band, with the room of the others above and below', () => {
    expect(visibleRange({ sizes, top: 320, bottom: 400 })).toEqual({ start: 2, end: 4, before: 300, after: 250 });
    expect(visibleRange({ sizes, top: -500, bottom: 50 })).toEqual({ start: 0, end: 1, before: 0, after: 900 });
    expect(visibleRange({ sizes, top: 5000, bottom: 6000 })).toEqual({ start: 4, end: 5, before: 750, after: 0 });
  });
});

describe('offsetOf and itemAt', () => {
  it('say where an item begins, and which item is at a height of the content', () => {
    expect([0, 1, 2, 3, 4, 5].map((index) => offsetOf(sizes, index))).toEqual([0, 100, 300, 350, 750, 1000]);
    expect(itemAt(sizes, 0)).toEqual({ index: 0, offset: 0 });
    expect(itemAt(sizes, 99)).toEqual({ index: 0, offset: 0 });
    expect(itemAt(sizes, 100)).toEqual({ index: 1, offset: 100 });
    expect(itemAt(sizes, 760)).toEqual({ index: 4, offset: 750 });
    expect(itemAt(sizes, 99_999)).toEqual({ index: 4, offset: 750 });
    expect(itemAt([], 10)).toEqual({ index: 0, offset: 0 });
  });
});
