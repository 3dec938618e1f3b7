import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../../core/models/model-adapter.ts';
import { startLoopbackModelServer, type LoopbackModelServer } from '../../helpers/loopback-model-server.ts';
import { collectStream } from './collect-stream.ts';
import { adapterFor, type Provider } from './fixture-adapters.ts';

const lampParameters = {
  type: 'object' as const,
  properties: { device_id: { type: 'string' as const }, on: { type: 'boolean' as const } },
  required: ['device_id'],
  additionalProperties: false,
};

// One reply with two tool calls, then both results paired by id; the second result has a picture.
const conversation: ModelRequest = {
  system: 'You control lamps.',
  tools: [
    { name: 'lamp_set', description: 'Switch a lamp.', parameters: lampParameters },
    { name: 'camera_snap', description: 'Take a picture.', parameters: { type: 'object', properties: {} } },
  ],
  messages: [
    { role: 'user', text: 'Lamp on and a picture.' },
    {
      role: 'assistant',
      text: 'Doing both.',
      toolCalls: [
        { id: 'call_1', name: 'lamp_set', args: { device_id: 'lamp-1', on: true } },
        { id: 'call_2', name: 'camera_snap', args: {} },
      ],
    },
    { role: 'tool', toolCallId: 'call_1', toolName: 'lamp_set', content: '{"reason":"device_offline"}', isError: true },
    {
      role: 'tool',
      toolCallId: 'call_2',
      toolName: 'camera_snap',
      content: '{"saved":"snap.png"}',
      isError: false,
      media: [{ mimeType: 'image/png', data: 'iVBORw0=' }],
    },
  ],
};

const endings: Record<Provider, { body: string; type: string }> = {
  openai: {
    body: 'data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
    type: 'text/event-stream',
  },
  anthropic: { body: 'event: message_stop\ndata: {"type":"message_stop"}\n\n', type: 'text/event-stream' },
  gemini: {
    body: 'data: {"candidates":[{"content":{"parts":[{"text":"ok"}]},"finishReason":"STOP"}]}\r\n\r\n',
    type: 'text/event-stream',
  },
  ollama: {
    body: '{"message":{"role":"assistant","content":"ok"},"done":true,"done_reason":"stop"}\n',
    type: 'application/x-ndjson',
  },
};

describe('request bodies: the conversation as each format wants it', () => {
  let server: LoopbackModelServer;
  beforeEach(async () => {
    server = await startLoopbackModelServer();
  });
  afterEach(async () => {
    await server.close();
  });

  async function sent(
    provider: Provider,
    request: ModelRequest = conversation,
  ): Promise<{ url: string; body: unknown }> {
    server.reply({ body: endings[provider].body, headers: { 'content-type': endings[provider].type } });
    const result = await collectStream({ adapter: adapterFor(provider, server.url), request });
    expect(result.error).toBeUndefined();
    const recorded = server.requests.at(-1);
    return { url: recorded?.url ?? '', body: JSON.parse(recorded?.body ?? 'null') };
  }

  it('OpenAI: system message, assistant tool_calls, tool messages by tool_call_id, media after the run', async () => {
    const { url, body } = await sent('openai');
    expect(url).toBe('/v1/chat/completions');
    expect(body).toEqual({
      model: 'test-model',
      stream: true,
      stream_options: { include_usage: true },
      parallel_tool_calls: true,
      tools: [
        { type: 'function', function: { name: 'lamp_set', description: 'Switch a lamp.', parameters: lampParameters } },
        {
          type: 'function',
          function: {
            name: 'camera_snap',
            description: 'Take a picture.',
            parameters: { type: 'object', properties: {} },
          },
        },
      ],
      messages: [
        { role: 'system', content: 'You control lamps.' },
        { role: 'user', content: 'Lamp on and a picture.' },
        {
          role: 'assistant',
          content: 'Doing both.',
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'lamp_set', arguments: '{"device_id":"lamp-1","on":true}' },
            },
            { id: 'call_2', type: 'function', function: { name: 'camera_snap', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"reason":"device_offline"}' },
        { role: 'tool', tool_call_id: 'call_2', content: '{"saved":"snap.png"}' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Media from tool call call_2 (camera_snap):' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0=' } },
          ],
        },
      ],
    });
  });

  it('OpenAI: no tools means no tools field and no parallel_tool_calls', async () => {
    const { body } = await sent('openai', { system: '', tools: [], messages: [{ role: 'user', text: 'hi' }] });
    expect(body).toEqual({
      model: 'test-model',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'hi' }],
    });
  });

  it('Anthropic: system field, tool_use blocks, tool_result blocks in one user message with their images', async () => {
    const { url, body } = await sent('anthropic');
    expect(url).toBe('/v1/messages');
    expect(body).toEqual({
      model: 'test-model',
      max_tokens: 4096,
      stream: true,
      system: 'You control lamps.',
      tools: [
        { name: 'lamp_set', description: 'Switch a lamp.', input_schema: lampParameters },
        { name: 'camera_snap', description: 'Take a picture.', input_schema: { type: 'object', properties: {} } },
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Lamp on and a picture.' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Doing both.' },
            { type: 'tool_use', id: 'call_1', name: 'lamp_set', input: { device_id: 'lamp-1', on: true } },
            { type: 'tool_use', id: 'call_2', name: 'camera_snap', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'call_1',
              content: [{ type: 'text', text: '{"reason":"device_offline"}' }],
              is_error: true,
            },
            {
              type: 'tool_result',
              tool_use_id: 'call_2',
              content: [
                { type: 'text', text: '{"saved":"snap.png"}' },
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0=' } },
              ],
              is_error: false,
            },
          ],
        },
      ],
    });
  });

  it('Anthropic: a user message right after the results joins their user turn (roles alternate)', async () => {
    const request: ModelRequest = {
      system: '',
      tools: [],
      messages: [
        { role: 'user', text: 'lamp?' },
        { role: 'assistant', text: '', toolCalls: [{ id: 'toolu_1', name: 'lamp_get', args: {} }] },
        { role: 'tool', toolCallId: 'toolu_1', toolName: 'lamp_get', content: 'on', isError: false },
        { role: 'user', text: 'and now off' },
      ],
    };
    const { body } = await sent('anthropic', request);
    expect((body as { messages: unknown }).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'lamp?' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lamp_get', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'on' }], is_error: false },
          { type: 'text', text: 'and now off' },
        ],
      },
    ]);
  });

  it('Gemini: systemInstruction, functionCall parts, functionResponse parts with inlineData media', async () => {
    const { url, body } = await sent('gemini');
    expect(url).toBe('/v1beta/models/test-model:streamGenerateContent?alt=sse');
    expect(server.requests.at(-1)?.headers['x-goog-api-key']).toBe('sk-test-secret-key');
    expect(body).toEqual({
      systemInstruction: { parts: [{ text: 'You control lamps.' }] },
      tools: [
        {
          functionDeclarations: [
            {
              name: 'lamp_set',
              description: 'Switch a lamp.',
              parameters: {
                type: 'object',
                properties: { device_id: { type: 'string' }, on: { type: 'boolean' } },
                required: ['device_id'],
              },
            },
            { name: 'camera_snap', description: 'Take a picture.' },
          ],
        },
      ],
      contents: [
        { role: 'user', parts: [{ text: 'Lamp on and a picture.' }] },
        {
          role: 'model',
          parts: [
            { text: 'Doing both.' },
            {
              functionCall: { name: 'lamp_set', args: { device_id: 'lamp-1', on: true }, id: 'call_1' },
              thoughtSignature: 'skip_thought_signature_validator',
            },
            { functionCall: { name: 'camera_snap', args: {}, id: 'call_2' } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'lamp_set', response: { error: { reason: 'device_offline' } }, id: 'call_1' } },
            { functionResponse: { name: 'camera_snap', response: { saved: 'snap.png' }, id: 'call_2' } },
            { inlineData: { mimeType: 'image/png', data: 'iVBORw0=' } },
          ],
        },
      ],
    });
  });

  it('Gemini: ids the adapter made up are not sent back', async () => {
    const request: ModelRequest = {
      system: '',
      tools: [],
      messages: [
        { role: 'user', text: 'lamp?' },
        { role: 'assistant', text: '', toolCalls: [{ id: 'gemini-0-0', name: 'lamp_get', args: {} }] },
        { role: 'tool', toolCallId: 'gemini-0-0', toolName: 'lamp_get', content: 'on', isError: false },
      ],
    };
    const { body } = await sent('gemini', request);
    expect(body).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'lamp?' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'lamp_get', args: {} }, thoughtSignature: 'skip_thought_signature_validator' },
          ],
        },
        { role: 'user', parts: [{ functionResponse: { name: 'lamp_get', response: { result: 'on' } } }] },
      ],
    });
  });

  it('Ollama: system message, tool_calls with object arguments, tool messages naming tool and call, images after the run', async () => {
    const { url, body } = await sent('ollama');
    expect(url).toBe('/api/chat');
    expect(body).toEqual({
      model: 'test-model',
      stream: true,
      tools: [
        { type: 'function', function: { name: 'lamp_set', description: 'Switch a lamp.', parameters: lampParameters } },
        {
          type: 'function',
          function: {
            name: 'camera_snap',
            description: 'Take a picture.',
            parameters: { type: 'object', properties: {} },
          },
        },
      ],
      messages: [
        { role: 'system', content: 'You control lamps.' },
        { role: 'user', content: 'Lamp on and a picture.' },
        {
          role: 'assistant',
          content: 'Doing both.',
          tool_calls: [
            { id: 'call_1', function: { name: 'lamp_set', arguments: { device_id: 'lamp-1', on: true } } },
            { id: 'call_2', function: { name: 'camera_snap', arguments: {} } },
          ],
        },
        { role: 'tool', tool_name: 'lamp_set', tool_call_id: 'call_1', content: '{"reason":"device_offline"}' },
        { role: 'tool', tool_name: 'camera_snap', tool_call_id: 'call_2', content: '{"saved":"snap.png"}' },
        {
          role: 'user',
          content: 'Media from tool calls, in order: call_2 (camera_snap, image/png)',
          images: ['iVBORw0='],
        },
      ],
    });
  });
});
