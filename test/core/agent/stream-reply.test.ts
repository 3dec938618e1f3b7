import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { streamReply } from '../../../core/agent/stream-reply.ts';
import type { ModelAdapter, ModelRequest, ModelStreamPart } from '../../../core/models/model-adapter.ts';
import { ModelError } from '../../../core/models/model-error.ts';
import { ScriptedModel } from '../../../core/models/scripted/scripted-model.ts';
import { startLoopbackModelServer, type LoopbackModelServer } from '../../helpers/loopback-model-server.ts';
import { adapterFor } from '../models/fixture-adapters.ts';

const wrapperStream = readFileSync(resolve(import.meta.dirname, '../../fixtures/streams/openai-parallel-wrapper.txt'));
const request: ModelRequest = { system: '', tools: [], messages: [{ role: 'user', text: 'Show the temperature.' }] };

function reply(model: ModelAdapter): ReturnType<typeof streamReply> {
  return streamReply({
    model,
    request,
    signal: new AbortController().signal,
    makeCallId: (position) => `call_made_${position}`,
    onText: () => undefined,
  });
}

describe('streamReply and multi_tool_use.parallel', () => {
  let server: LoopbackModelServer;
  beforeEach(async () => {
    server = await startLoopbackModelServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('hands on the calls the wrapper holds, in its place, and never the wrapper', async () => {
    server.reply({ body: wrapperStream });
    const result = await reply(adapterFor('openai', server.url));
    expect(result.error).toBeUndefined();
    expect(result.finish).toBe('tool_calls');
    expect(result.calls.map((call) => [call.index, call.id, call.name, call.argumentsText, call.complete])).toEqual([
      [0, 'call_wrap_0', 'output_send__chat', '{"text":"Température: 21 °C 💡"}', true],
      [1, 'call_wrap_1', 'system_list_tools', '{}', true],
      [2, 'call_wrap_2', 'output_list_channels', '{}', true],
    ]);
  });

  it('never unpacks a wrapper the stream cut off: it stays one incomplete call', async () => {
    // Byte 700 is inside the third event: the wrapper's name and one piece of its arguments arrived.
    server.reply({ body: wrapperStream, cutAfterBytes: 700 });
    const result = await reply(adapterFor('openai', server.url));
    expect(ModelError.isInstance(result.error) && result.error.kind).toBe('stream_cut');
    expect(result.calls.map((call) => [call.id, call.name, call.complete])).toEqual([
      ['call_wrap', 'multi_tool_use.parallel', false],
    ]);
  });

  it('ends the reply with a clear error and no calls when the wrapper cannot be read', async () => {
    const model = new ScriptedModel({
      replies: [
        {
          text: 'On it.',
          toolCalls: [
            { id: 'call_ok', name: 'lamp_get', args: { device_id: 'lamp-1' } },
            {
              id: 'call_bad',
              name: 'multi_tool_use.parallel',
              argumentsText: '{"tool_uses":[{"recipient_name":"lamp_get","parameters":{}}]}',
            },
          ],
        },
      ],
    });
    const result = await reply(model);
    expect(result.text).toBe('On it.');
    expect(result.calls).toEqual([]);
    expect(ModelError.isInstance(result.error)).toBe(true);
    const error = result.error as ModelError;
    expect(error.kind).toBe('bad_chunk');
    expect(error.message).toContain('multi_tool_use.parallel (call call_bad)');
    expect(error.message).toContain("tool_uses[0].recipient_name 'lamp_get' does not start with 'functions.'");
    expect(error.message).toContain('No tool of this reply was run.');
  });
});

describe('streamReply and calls handed over while the reply streams (early start)', () => {
  /** A model that yields the given parts, as an adapter would after parsing its wire. */
  function partsModel(parts: ModelStreamPart[]): ModelAdapter {
    return {
      label: 'parts',
      async *stream() {
        yield* parts;
      },
    };
  }

  function finals(parts: ModelStreamPart[]) {
    const handed: [string, string][] = [];
    const done = streamReply({
      model: partsModel(parts),
      request,
      signal: new AbortController().signal,
      makeCallId: (position) => `call_made_${position}`,
      onText: () => undefined,
      onFinal: (call) => handed.push([call.id, call.argumentsText]),
    });
    return { handed, done };
  }

  it('hands over a call only once the wire says it is complete, never one whose arguments could still grow', async () => {
    // Two calls interleave (a Gemini-style server could): call 0 ends while call 1 is still open.
    const { handed, done } = finals([
      { type: 'tool-call-delta', index: 0, id: 'a', name: 'lamp_get', argumentsDelta: '{"device_id":"lamp-1"}' },
      { type: 'tool-call-delta', index: 1, id: 'b', name: 'lamp_set', argumentsDelta: '{"device_id":"lamp-2"' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-delta', index: 1, argumentsDelta: ',"on":true}' },
      { type: 'tool-call-end', index: 1 },
      { type: 'finish', reason: 'tool_calls' },
    ]);
    const result = await done;
    expect(result.error).toBeUndefined();
    // By hand: call 1 is handed over whole, after its own end, never its first half.
    expect(handed).toEqual([
      ['a', '{"device_id":"lamp-1"}'],
      ['b', '{"device_id":"lamp-2","on":true}'],
    ]);
  });

  it('hands over nothing after a call still open, even when a later one is complete', async () => {
    const { handed, done } = finals([
      { type: 'tool-call-delta', index: 0, id: 'a', name: 'lamp_get', argumentsDelta: '{"device_id":' },
      { type: 'tool-call-delta', index: 1, id: 'b', name: 'lamp_set', argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 1 },
    ]);
    await done;
    // Call 1 is complete, but call 0 before it could still grow: nothing starts out of order.
    expect(handed).toEqual([]);
  });
});
