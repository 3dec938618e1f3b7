import { describe, expect, it } from 'vitest';
import { parseToolArguments } from '../../../core/stream/parse-tool-arguments.ts';
import type { AccumulatedToolCall } from '../../../core/stream/tool-call-accumulator.ts';
import { unpackParallelWrappers } from '../../../core/stream/unpack-parallel-wrapper.ts';

function call(
  fields: Partial<AccumulatedToolCall> & { index: number; id: string; name: string; argumentsText: string },
): AccumulatedToolCall {
  return { streamIndex: fields.index, syntheticId: false, complete: true, ...fields };
}

function wrapper(argumentsText: string, fields: Partial<AccumulatedToolCall> = {}): AccumulatedToolCall {
  return call({ index: 0, id: 'call_wrap', name: 'multi_tool_use.parallel', argumentsText, ...fields });
}

describe('unpackParallelWrappers', () => {
  it('leaves a reply without a wrapper exactly as it was', () => {
    const calls = [
      call({ index: 0, id: 'call_a', name: 'lamp_set', argumentsText: '{"device_id":"lamp-1"}' }),
      call({ index: 1, id: 'call_b', name: 'lamp_get', argumentsText: '' }),
    ];
    expect(unpackParallelWrappers(calls)).toEqual({ ok: true, calls });
  });

  it('replaces the wrapper by the calls it holds, with ids <wrapperId>_<n> counted from 0', () => {
    const arguments_ = JSON.stringify({
      tool_uses: [
        { recipient_name: 'functions.lamp_set', parameters: { device_id: 'lamp-1', on: true } },
        { recipient_name: 'functions.lamp_set', parameters: { device_id: 'lamp-2', on: true } },
        { recipient_name: 'functions.display_show', parameters: { text: '温度 💡' } },
      ],
    });
    expect(unpackParallelWrappers([wrapper(arguments_)])).toEqual({
      ok: true,
      calls: [
        {
          index: 0,
          streamIndex: 0,
          id: 'call_wrap_0',
          syntheticId: false,
          name: 'lamp_set',
          argumentsText: '{"device_id":"lamp-1","on":true}',
          complete: true,
        },
        {
          index: 1,
          streamIndex: 0,
          id: 'call_wrap_1',
          syntheticId: false,
          name: 'lamp_set',
          argumentsText: '{"device_id":"lamp-2","on":true}',
          complete: true,
        },
        {
          index: 2,
          streamIndex: 0,
          id: 'call_wrap_2',
          syntheticId: false,
          name: 'display_show',
          argumentsText: '{"text":"温度 💡"}',
          complete: true,
        },
      ],
    });
  });

  it("puts the unpacked calls in the wrapper's place and renumbers every call's position", () => {
    const calls = [
      call({ index: 0, streamIndex: 0, id: 'call_a', name: 'lamp_get', argumentsText: '{}' }),
      wrapper(
        '{"tool_uses":[{"recipient_name":"functions.relay_set","parameters":{"channel":1}},{"recipient_name":"functions.relay_set","parameters":{"channel":2}}]}',
        { index: 1, streamIndex: 4, id: 'call_w' },
      ),
      call({ index: 2, streamIndex: 7, id: 'call_b', name: 'display_show', argumentsText: '{"text":"hi"}' }),
    ];
    const result = unpackParallelWrappers(calls);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.calls.map((each) => [each.index, each.streamIndex, each.id, each.name, each.argumentsText])).toEqual([
      [0, 0, 'call_a', 'lamp_get', '{}'],
      [1, 4, 'call_w_0', 'relay_set', '{"channel":1}'],
      [2, 4, 'call_w_1', 'relay_set', '{"channel":2}'],
      [3, 7, 'call_b', 'display_show', '{"text":"hi"}'],
    ]);
  });

  it('unpacks a wrapper whose id was made up, keeping the made-up mark on its calls', () => {
    const result = unpackParallelWrappers([
      wrapper('{"tool_uses":[{"recipient_name":"functions.lamp_get","parameters":{}}]}', {
        id: 'call_t1_0_0',
        syntheticId: true,
      }),
    ]);
    expect(result).toMatchObject({ ok: true, calls: [{ id: 'call_t1_0_0_0', syntheticId: true, name: 'lamp_get' }] });
  });

  it('leaves a wrapper the stream never finished as it is (an incomplete call never runs)', () => {
    const cut = wrapper('{"tool_uses":[{"recipient_name":"functions.lamp_', { complete: false });
    expect(unpackParallelWrappers([cut])).toEqual({ ok: true, calls: [cut] });
  });

  it('gives an entry without parameters empty arguments, like a call without arguments', () => {
    const result = unpackParallelWrappers([
      wrapper('{"tool_uses":[{"recipient_name":"functions.system_list_tools"}]}'),
    ]);
    expect(result).toMatchObject({ ok: true, calls: [{ id: 'call_wrap_0', argumentsText: '{}' }] });
  });

  it('keeps parameters that are not an object as the call arguments, so that call alone is answered invalid_json', () => {
    const result = unpackParallelWrappers([
      wrapper(
        '{"tool_uses":[{"recipient_name":"functions.lamp_get","parameters":"lamp-1"},{"recipient_name":"functions.lamp_get","parameters":{"device_id":"lamp-2"}},{"recipient_name":"functions.lamp_get","parameters":null}]}',
      ),
    ]);
    expect(result).toMatchObject({
      ok: true,
      calls: [
        { id: 'call_wrap_0', name: 'lamp_get', argumentsText: '"lamp-1"' },
        { id: 'call_wrap_1', name: 'lamp_get', argumentsText: '{"device_id":"lamp-2"}' },
        { id: 'call_wrap_2', name: 'lamp_get', argumentsText: 'null' },
      ],
    });
    if (!result.ok) return;
    expect(parseToolArguments(result.calls[0]?.argumentsText ?? '')).toEqual({
      ok: false,
      detail: 'the arguments must be a JSON object, got string',
    });
  });

  const unreadable: [string, string, string][] = [
    ['arguments that are not JSON', '{"tool_uses":[', 'its arguments are not valid JSON'],
    ['arguments that are an array', '[]', 'its arguments must be a JSON object, got an array'],
    ['no tool_uses', '{"calls":[]}', 'its arguments have no tool_uses array'],
    [
      'tool_uses that is not an array',
      '{"tool_uses":{"recipient_name":"functions.a"}}',
      'its arguments have no tool_uses array',
    ],
    ['an empty tool_uses', '{"tool_uses":[]}', 'tool_uses is empty'],
    ['an entry that is not an object', '{"tool_uses":["functions.lamp_get"]}', 'tool_uses[0] is not an object'],
    [
      'an entry without recipient_name',
      '{"tool_uses":[{"recipient_name":"functions.a"},{"parameters":{}}]}',
      'tool_uses[1] has no recipient_name',
    ],
    [
      'a recipient without the functions. prefix',
      '{"tool_uses":[{"recipient_name":"lamp_get","parameters":{}}]}',
      "tool_uses[0].recipient_name 'lamp_get' does not start with 'functions.'",
    ],
    [
      'a recipient that is only the prefix',
      '{"tool_uses":[{"recipient_name":"functions.","parameters":{}}]}',
      "tool_uses[0].recipient_name 'functions.' names no tool",
    ],
    [
      'a wrapper inside the wrapper',
      '{"tool_uses":[{"recipient_name":"functions.multi_tool_use.parallel","parameters":{"tool_uses":[]}}]}',
      'tool_uses[0] is itself a multi_tool_use.parallel wrapper',
    ],
  ];
  for (const [what, argumentsText, problem] of unreadable) {
    it(`reports a wrapper with ${what} as unreadable, naming the wrapper and what is wrong`, () => {
      const result = unpackParallelWrappers([
        call({ index: 0, id: 'call_before', name: 'lamp_get', argumentsText: '{}' }),
        wrapper(argumentsText, { index: 1 }),
      ]);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.wrapperId).toBe('call_wrap');
      expect(result.problem).toContain(problem);
    });
  }
});
