import { describe, expect, it } from 'vitest';
import { ToolCallAccumulator } from '../../../core/stream/tool-call-accumulator.ts';
import { mulberry32 } from '../../helpers/mulberry32.ts';
import type { ToolCallDeltaPart } from '../../../core/models/model-adapter.ts';

type Fragment = Omit<ToolCallDeltaPart, 'type'>;

function accumulate(fragments: readonly Fragment[], ends: readonly number[] = []): ToolCallAccumulator {
  const accumulator = new ToolCallAccumulator();
  for (const fragment of fragments) accumulator.push({ type: 'tool-call-delta', ...fragment });
  for (const index of ends) accumulator.end(index);
  return accumulator;
}

/** The fields a test checks, in flush order. */
function summary(accumulator: ToolCallAccumulator, streamCompleted = true) {
  return accumulator
    .flush({ streamCompleted })
    .map((call) => ({ id: call.id, name: call.name, argumentsText: call.argumentsText, complete: call.complete }));
}

describe('ToolCallAccumulator', () => {
  it('starts a new call on a new id when the index is omitted, and continues the latest call without an id', () => {
    const accumulator = accumulate([
      { id: 'a', name: 'lamp__set', argumentsDelta: '{"on":' },
      { argumentsDelta: 'true}' },
      { id: 'b', name: 'thermo__read', argumentsDelta: '{"room"' },
      { argumentsDelta: ':"hall"}' },
    ]);
    expect(summary(accumulator)).toEqual([
      { id: 'a', name: 'lamp__set', argumentsText: '{"on":true}', complete: true },
      { id: 'b', name: 'thermo__read', argumentsText: '{"room":"hall"}', complete: true },
    ]);
  });

  it('accepts stream indexes that start at 1 and renumbers the flushed calls from 0', () => {
    const calls = accumulate([
      { index: 1, id: 'a', name: 'x', argumentsDelta: '{}' },
      { index: 2, id: 'b', name: 'y', argumentsDelta: '{}' },
    ]).flush({ streamCompleted: true });
    expect(calls.map((call) => [call.index, call.streamIndex, call.id])).toEqual([
      [0, 1, 'a'],
      [1, 2, 'b'],
    ]);
  });

  it('flushes sparse indexes in ascending index order', () => {
    const calls = accumulate([
      { index: 5, id: 'five', name: 'x' },
      { index: 0, id: 'zero', name: 'x' },
      { index: 2, id: 'two', name: 'x' },
    ]).flush({ streamCompleted: true });
    expect(calls.map((call) => [call.index, call.streamIndex, call.id])).toEqual([
      [0, 0, 'zero'],
      [1, 2, 'two'],
      [2, 5, 'five'],
    ]);
  });

  it('starts a new call when a new id arrives at an index already in use (servers that send index 0 for every call)', () => {
    const accumulator = accumulate([
      { index: 0, id: 'a', name: 'lamp__set', argumentsDelta: '{"n":' },
      { index: 0, argumentsDelta: '1}' },
      { index: 0, id: 'b', name: 'lamp__set', argumentsDelta: '{"n":' },
      { index: 0, argumentsDelta: '2}' },
    ]);
    expect(summary(accumulator)).toEqual([
      { id: 'a', name: 'lamp__set', argumentsText: '{"n":1}', complete: true },
      { id: 'b', name: 'lamp__set', argumentsText: '{"n":2}', complete: true },
    ]);
  });

  it('keeps the same id at the same index as one call (the id repeated in every fragment)', () => {
    const accumulator = accumulate([
      { index: 0, id: 'a', name: 'x', argumentsDelta: '{"n"' },
      { index: 0, id: 'a', argumentsDelta: ':1}' },
    ]);
    expect(summary(accumulator)).toEqual([{ id: 'a', name: 'x', argumentsText: '{"n":1}', complete: true }]);
  });

  it('takes a name that arrives after the arguments', () => {
    const accumulator = accumulate([
      { index: 0, id: 'a', argumentsDelta: '{"n":' },
      { index: 0, name: 'x', argumentsDelta: '1}' },
    ]);
    expect(summary(accumulator)).toEqual([{ id: 'a', name: 'x', argumentsText: '{"n":1}', complete: true }]);
  });

  it('keeps a call with no argument text as empty text (parsed later as {})', () => {
    expect(summary(accumulate([{ index: 0, id: 'a', name: 'x', argumentsDelta: '' }]))).toEqual([
      { id: 'a', name: 'x', argumentsText: '', complete: true },
    ]);
  });

  it('routes fragments that carry only an index to the call whose id came in the first fragment', () => {
    const accumulator = accumulate([
      { index: 0, id: 'a', name: 'x', argumentsDelta: '{' },
      { index: 1, id: 'b', name: 'y', argumentsDelta: '{' },
      { index: 0, argumentsDelta: '"p":0}' },
      { index: 1, argumentsDelta: '"p":1}' },
    ]);
    expect(summary(accumulator)).toEqual([
      { id: 'a', name: 'x', argumentsText: '{"p":0}', complete: true },
      { id: 'b', name: 'y', argumentsText: '{"p":1}', complete: true },
    ]);
  });

  it('treats an empty or null id and name as absent', () => {
    const accumulator = accumulate([
      { index: 0, id: '', name: '', argumentsDelta: '{"n"' },
      { index: 0, id: null, name: null, argumentsDelta: ':1' },
      { index: 0, id: 'real', name: 'x', argumentsDelta: '}' },
      { index: 0, id: '', name: '' },
    ]);
    expect(summary(accumulator)).toEqual([{ id: 'real', name: 'x', argumentsText: '{"n":1}', complete: true }]);
  });

  it('makes up an id for a call that never got one and says so', () => {
    const calls = new ToolCallAccumulator((position) => `made_${position}`);
    calls.push({ type: 'tool-call-delta', index: 3, id: 'given', name: 'x' });
    calls.push({ type: 'tool-call-delta', index: 7, id: '', name: 'y' });
    expect(calls.flush({ streamCompleted: true }).map((call) => [call.id, call.syntheticId])).toEqual([
      ['given', false],
      ['made_1', true],
    ]);
  });

  it('does not append a repeated name to itself', () => {
    const accumulator = accumulate([
      { index: 0, id: 'a', name: 'lamp__set', argumentsDelta: '{' },
      { index: 0, name: 'lamp__set', argumentsDelta: '}' },
    ]);
    expect(summary(accumulator)).toEqual([{ id: 'a', name: 'lamp__set', argumentsText: '{}', complete: true }]);
  });

  it('keeps collecting after the arguments already parse: a call is final only at flush', () => {
    // '{"n":1}' parses after the first fragment; the name, more text and a second call still follow.
    const accumulator = accumulate([
      { index: 0, id: 'a', argumentsDelta: '{"n":1}' },
      { index: 0, name: 'x', argumentsDelta: ' ' },
      { index: 1, id: 'b', name: 'y', argumentsDelta: '{}' },
    ]);
    expect(summary(accumulator)).toEqual([
      { id: 'a', name: 'x', argumentsText: '{"n":1} ', complete: true },
      { id: 'b', name: 'y', argumentsText: '{}', complete: true },
    ]);
  });

  it('flushes 8 calls in index order over 200 rounds of shuffled fragments (seed 001, phase 0)', () => {
    // Seeded, so the shuffled rounds are the same on every run.
    const random = mulberry32(1);
    for (let round = 0; round < 200; round++) {
      // Each call's own fragments keep their order; the calls interleave at random.
      const queues = Array.from(
        { length: 8 },
        (_, i) =>
          [
            { index: i, id: `id_${i}`, name: `tool_0${i}`, argumentsDelta: '{"i"' },
            { index: i, argumentsDelta: ':' },
            { index: i, argumentsDelta: `${i}}` },
          ] as Fragment[],
      );
      const fragments: Fragment[] = [];
      while (queues.some((queue) => queue.length > 0)) {
        const open = queues.filter((queue) => queue.length > 0);
        fragments.push(open[Math.floor(random() * open.length)]?.shift() as Fragment);
      }
      const calls = accumulate(fragments).flush({ streamCompleted: true });
      const expected = ['tool_00', 'tool_01', 'tool_02', 'tool_03', 'tool_04', 'tool_05', 'tool_06', 'tool_07'];
      expect(
        calls.map((call) => call.name),
        `round ${round}`,
      ).toEqual(expected);
      expect(calls.map((call) => call.argumentsText)).toEqual([
        '{"i":0}',
        '{"i":1}',
        '{"i":2}',
        '{"i":3}',
        '{"i":4}',
        '{"i":5}',
        '{"i":6}',
        '{"i":7}',
      ]);
      expect(calls.map((call) => call.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    }
  });

  it('flushes in index order also when the stream was cut, and then no call is complete', () => {
    const accumulator = accumulate([
      { index: 1, id: 'b', name: 'y', argumentsDelta: '{}' },
      { index: 0, id: 'a', name: 'x', argumentsDelta: '{"n":1}' },
    ]);
    expect(summary(accumulator, false)).toEqual([
      { id: 'a', name: 'x', argumentsText: '{"n":1}', complete: false },
      { id: 'b', name: 'y', argumentsText: '{}', complete: false },
    ]);
  });

  it('leaves a call that requires an end marker incomplete without it, even with parseable arguments', () => {
    const fragments: Fragment[] = [
      { index: 0, id: 'a', name: 'x', argumentsDelta: '{"n":1}', requiresEnd: true },
      { index: 1, id: 'b', name: 'y', argumentsDelta: '{}', requiresEnd: true },
    ];
    expect(summary(accumulate(fragments, [0])).map((call) => call.complete)).toEqual([true, false]);
    expect(summary(accumulate(fragments, [0, 1])).map((call) => call.complete)).toEqual([true, true]);
  });

  it('leaves a call without a name incomplete', () => {
    expect(summary(accumulate([{ index: 0, id: 'a', argumentsDelta: '{}' }])).map((call) => call.complete)).toEqual([
      false,
    ]);
  });
});
