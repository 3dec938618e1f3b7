import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../../core/models/model-adapter.ts';
import {
  startLoopbackModelServer,
  type LoopbackModelServer,
  type LoopbackResponder,
} from '../../helpers/loopback-model-server.ts';
import { collectStream } from './collect-stream.ts';
import { adapterFor } from './fixture-adapters.ts';

const folder = resolve(import.meta.dirname, '../../fixtures/streams');
const refusal = readFileSync(join(folder, 'openai-parallel-tool-calls-refused.json'), 'utf8');
const stream = readFileSync(join(folder, 'openai-id-only-in-first.txt'));
const json = { 'content-type': 'application/json' };

const withTools: ModelRequest = {
  system: 'You control lamps.',
  messages: [{ role: 'user', text: 'Lamp 3 on.' }],
  tools: [{ name: 'lamp_set', description: 'Switch a lamp.', parameters: { type: 'object', properties: {} } }],
};

// What the stream yields, worked out by hand from openai-id-only-in-first.txt.
const expectedParts = [
  { type: 'tool-call-delta', index: 0, id: 'call_first', name: 'lamp_set' },
  { type: 'tool-call-delta', index: 0, argumentsDelta: '{"dev' },
  { type: 'tool-call-delta', index: 0, argumentsDelta: 'ice_id":"lamp-' },
  { type: 'tool-call-delta', index: 0, argumentsDelta: '3"}' },
  { type: 'finish', reason: 'tool_calls', usage: { inputTokens: 10, outputTokens: 5 } },
];

/**
 * Answers like OpenAI for a reasoning model: any request carrying `parallel_tool_calls` gets the 400.
 * The accepted reply comes in 5-byte writes, so a chunk passed on twice would garble it.
 */
const refusesParameter: LoopbackResponder = (request) =>
  'parallel_tool_calls' in (JSON.parse(request.body) as object)
    ? { status: 400, headers: json, body: refusal }
    : { body: stream, chunkSize: 5 };

function sentParameter(server: LoopbackModelServer): unknown[] {
  return server.requests.map((request) => (JSON.parse(request.body) as Record<string, unknown>).parallel_tool_calls);
}

describe('OpenAI adapter and parallel_tool_calls', () => {
  let server: LoopbackModelServer;
  beforeEach(async () => {
    server = await startLoopbackModelServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('never sends parallel_tool_calls to a model the name rule knows refuses it', async () => {
    server.reply(refusesParameter);
    for (const model of ['o3-mini', 'o4-mini-2025-04-16', 'openai/o1']) {
      const result = await collectStream({ adapter: adapterFor('openai', server.url, { model }), request: withTools });
      expect(result.error).toBeUndefined();
    }
    expect(sentParameter(server)).toEqual([undefined, undefined, undefined]);
    expect((JSON.parse(server.requests[0]?.body ?? '{}') as { tools?: unknown[] }).tools).toHaveLength(1);
  });

  it('sends it to other models', async () => {
    server.reply({ body: stream });
    await collectStream({ adapter: adapterFor('openai', server.url, { model: 'gpt-4o' }), request: withTools });
    expect(sentParameter(server)).toEqual([true]);
  });

  it('retries once without it when a 400 names it, and the reply streams once, nothing doubled', async () => {
    server.reply(refusesParameter);
    const result = await collectStream({
      adapter: adapterFor('openai', server.url, { model: 'reasoner-unknown-to-the-rule', maxRetries: 0 }),
      request: withTools,
    });
    expect(result.error).toBeUndefined();
    expect(sentParameter(server)).toEqual([true, undefined]);
    expect(result.parts).toEqual(expectedParts);
    expect(result.calls).toEqual([
      { id: 'call_first', syntheticId: false, name: 'lamp_set', args: { device_id: 'lamp-3' }, complete: true },
    ]);
  });

  it('remembers the refusal for that base URL and model: later requests, from any adapter, send no parameter', async () => {
    server.reply(refusesParameter);
    const model = 'reasoner-remembered';
    const adapter = adapterFor('openai', server.url, { model });
    await collectStream({ adapter, request: withTools });
    const again = await collectStream({ adapter, request: withTools });
    const fresh = await collectStream({ adapter: adapterFor('openai', server.url, { model }), request: withTools });
    expect(again.error).toBeUndefined();
    expect(fresh.error).toBeUndefined();
    // One refused request, then three without the parameter: no second 400.
    expect(sentParameter(server)).toEqual([true, undefined, undefined, undefined]);
  });

  it('remembers it per model: another model at the same server still gets the parameter', async () => {
    server.reply(refusesParameter, { body: stream });
    await collectStream({ adapter: adapterFor('openai', server.url, { model: 'reasoner-a' }), request: withTools });
    server.reply({ body: stream });
    await collectStream({ adapter: adapterFor('openai', server.url, { model: 'chat-b' }), request: withTools });
    expect(sentParameter(server)).toEqual([true, undefined, true]);
  });

  it('remembers it per base URL: the same model at another server still gets the parameter', async () => {
    const other = await startLoopbackModelServer();
    try {
      server.reply(refusesParameter);
      other.reply({ body: stream });
      const model = 'reasoner-at-one-server';
      await collectStream({ adapter: adapterFor('openai', server.url, { model }), request: withTools });
      await collectStream({ adapter: adapterFor('openai', other.url, { model }), request: withTools });
      expect(sentParameter(server)).toEqual([true, undefined]);
      expect(sentParameter(other)).toEqual([true]);
    } finally {
      await other.close();
    }
  });

  it('does not retry a 400 that names another problem', async () => {
    server.reply({
      status: 400,
      headers: json,
      body: JSON.stringify({ error: { message: "Invalid value for 'temperature'.", param: 'temperature' } }),
    });
    const result = await collectStream({ adapter: adapterFor('openai', server.url), request: withTools });
    expect(result.error?.status).toBe(400);
    expect(result.error?.message).toContain("Invalid value for 'temperature'.");
    expect(server.requests).toHaveLength(1);
  });

  it('retries only once: a server that refuses the retry too fails with its own message', async () => {
    server.reply({ status: 400, headers: json, body: refusal });
    const result = await collectStream({ adapter: adapterFor('openai', server.url), request: withTools });
    expect(result.error?.status).toBe(400);
    expect(result.error?.message).toContain("Unsupported parameter: 'parallel_tool_calls' is not supported");
    expect(sentParameter(server)).toEqual([true, undefined]);
  });

  it('does not retry such a 400 for a request that did not carry the parameter', async () => {
    server.reply({ status: 400, headers: json, body: refusal });
    const result = await collectStream({
      adapter: adapterFor('openai', server.url, { model: 'o3-mini' }),
      request: withTools,
    });
    expect(result.error?.status).toBe(400);
    expect(server.requests).toHaveLength(1);
  });

  it('asks for the usage, and leaves stream_options out once a server refuses it (Azure’s older API versions), remembered', async () => {
    // Azure OpenAI before 2024-09-01-preview: 400 "Unrecognized request argument supplied: stream_options".
    const unrecognized = JSON.stringify({
      error: {
        code: null,
        message: 'Unrecognized request argument supplied: stream_options',
        param: null,
        type: 'invalid_request_error',
      },
    });
    server.reply((request) =>
      'stream_options' in (JSON.parse(request.body) as object)
        ? { status: 400, headers: json, body: unrecognized }
        : { body: stream },
    );
    const model = 'deployment-without-usage';
    const first = await collectStream({ adapter: adapterFor('openai', server.url, { model }), request: withTools });
    const again = await collectStream({ adapter: adapterFor('openai', server.url, { model }), request: withTools });
    expect(first.error).toBeUndefined();
    expect(again.error).toBeUndefined();
    const usageAsked = server.requests.map(
      (request) => (JSON.parse(request.body) as { stream_options?: unknown }).stream_options,
    );
    expect(usageAsked).toEqual([{ include_usage: true }, undefined, undefined]);
    // parallel_tool_calls was not what it refused: it stays.
    expect(sentParameter(server)).toEqual([true, true, true]);
  });
});
