import { describe, expect, it } from 'vitest';
import { formatDuration, summarizeArgs } from '../../../renderer/views/summarize-args.ts';

describe('summarizeArgs', () => {
  it('lists arguments in the model’s key order as compact JSON values', () => {
    expect(summarizeArgs({ device_id: 'lamp-1', on: true, level: { r: 1 } })).toBe(
      'device_id: "lamp-1", on: true, level: {"r":1}',
    );
  });

  it('cuts a long summary with an ellipsis at the limit', () => {
    expect(summarizeArgs({ text: 'abcdefghij' }, 12)).toBe('text: "abcd…');
  });

  it('shows no arguments as an empty string', () => {
    expect(summarizeArgs({})).toBe('');
  });
});

describe('formatDuration', () => {
  it('reads milliseconds, seconds and minutes the way people say them', () => {
    expect([formatDuration(840.4), formatDuration(1250), formatDuration(2000), formatDuration(125_000)]).toEqual([
      '840 ms',
      '1.25 s',
      '2 s',
      '2 min 5 s',
    ]);
  });
});
