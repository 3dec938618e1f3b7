import { describe, expect, it } from 'vitest';
import { titleFromMessage } from '../../../core/agent/title-from-message.ts';

describe('titleFromMessage', () => {
  it('keeps a short first message as it is', () => {
    expect(titleFromMessage('Turn on all lamps')).toBe('Turn on all lamps');
  });

  it('takes the first non-empty line and collapses its spaces', () => {
    expect(titleFromMessage('\n  turn   off\tlamp 2  \nand then the display')).toBe('turn off lamp 2');
  });

  it('cuts a long message at a word boundary, at most 60 characters with the ellipsis', () => {
    const text = 'Please turn on the living-room lamps, dim the kitchen to thirty percent and show the temperature';
    // Counted by hand: the first 59 characters end inside "percent"; the last space before is after "thirty".
    expect(titleFromMessage(text)).toBe('Please turn on the living-room lamps, dim the kitchen to…');
    expect(titleFromMessage(text).length).toBeLessThanOrEqual(60);
  });

  it('cuts a single long word where it must', () => {
    expect(titleFromMessage('x'.repeat(100))).toBe(`${'x'.repeat(59)}…`);
  });

  it('names an empty message plainly', () => {
    expect(titleFromMessage('  \n ')).toBe('New conversation');
  });
});
