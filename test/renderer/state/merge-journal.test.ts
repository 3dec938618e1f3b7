import { describe, expect, it } from 'vitest';
import { mergeJournal } from '../../../renderer/state/merge-journal.ts';
import { event } from '../helpers/agent-events.ts';

const delta = (at: number, text: string) => event({ type: 'text/delta', at, step: 0, text });

describe('mergeJournal', () => {
  it('drops live events the journal already holds and appends the ones it missed', () => {
    const journal = [delta(1, 'a'), delta(2, 'b')];
    const buffered = [delta(2, 'b'), delta(3, 'c')];
    expect(mergeJournal({ journal, buffered }).map((entry) => entry.type === 'text/delta' && entry.text)).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  it('counts equal events: two identical deltas are two deltas', () => {
    const journal = [delta(1, 'x')];
    const buffered = [delta(1, 'x'), delta(1, 'x')];
    expect(mergeJournal({ journal, buffered })).toHaveLength(2);
  });

  it('matches an event whatever order its keys were serialised in', () => {
    const journaled = delta(1, 'x');
    // The same event as another transport's parser may rebuild it: its keys in reverse order.
    const reordered = Object.fromEntries(Object.entries(journaled).reverse()) as typeof journaled;
    expect(mergeJournal({ journal: [journaled], buffered: [reordered] })).toHaveLength(1);
  });
});
