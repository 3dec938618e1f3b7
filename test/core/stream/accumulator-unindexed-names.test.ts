import { describe, expect, it } from 'vitest';
import { ToolCallAccumulator } from '../../../core/stream/tool-call-accumulator.ts';

describe('ToolCallAccumulator without indexes or ids', () => {
  it('starts a new call when a fragment brings a different name, instead of merging two calls into one', () => {
    const accumulator = new ToolCallAccumulator();
    accumulator.push({ type: 'tool-call-delta', name: 'lamp__get', argumentsDelta: '{"device_id":"a"}' });
    accumulator.push({ type: 'tool-call-delta', name: 'relay__get', argumentsDelta: '{"channel":1}' });
    const calls = accumulator.flush({ streamCompleted: true });
    expect(calls.map((call) => [call.name, call.argumentsText])).toEqual([
      ['lamp__get', '{"device_id":"a"}'],
      ['relay__get', '{"channel":1}'],
    ]);
  });

  it('keeps continuing the call when the same name is repeated (not appended to itself)', () => {
    const accumulator = new ToolCallAccumulator();
    accumulator.push({ type: 'tool-call-delta', name: 'lamp__get', argumentsDelta: '{"device_' });
    accumulator.push({ type: 'tool-call-delta', name: 'lamp__get', argumentsDelta: 'id":"a"}' });
    const calls = accumulator.flush({ streamCompleted: true });
    expect(calls.map((call) => [call.name, call.argumentsText])).toEqual([['lamp__get', '{"device_id":"a"}']]);
  });
});
