import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelRetryEvent } from '../../../core/models/adapter-options.ts';
import type { ModelStreamPart } from '../../../core/models/model-adapter.ts';
import { startLoopbackModelServer, type LoopbackModelServer } from '../../helpers/loopback-model-server.ts';
import { collectStream } from './collect-stream.ts';
import { adapterFor } from './fixture-adapters.ts';

const folder = resolve(import.meta.dirname, '../../fixtures/streams');
const openAiStream = readFileSync(join(folder, 'openai-id-only-in-first.txt'));
const json = { 'content-type': 'application/json' };
const KEY = 'sk-test-secret-key';

describe('model adapter errors', () => {
  let server: LoopbackModelServer;
  beforeEach(async () => {
    server = await startLoopbackModelServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('says no model server is at the URL when the connection is refused', async () => {
    const closed = await startLoopbackModelServer();
    const url = closed.url;
    await closed.close();
    const openai = await collectStream({ adapter: adapterFor('openai', url) });
    expect(openai.error?.kind).toBe('connection');
    expect(openai.error?.message).toContain(`no model server at ${url}/v1`);
    const ollama = await collectStream({ adapter: adapterFor('ollama', url) });
    expect(ollama.error?.message).toContain('is Ollama running?');
  });

  it('reports a refused key (401) without ever printing the key', async () => {
    server.reply({
      status: 401,
      headers: json,
      body: JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}.` } }),
    });
    const result = await collectStream({ adapter: adapterFor('openai', server.url, { maxRetries: 3 }) });
    expect(result.error?.kind).toBe('auth');
    expect(result.error?.status).toBe(401);
    expect(result.error?.message).toContain('API key');
    expect(result.error?.message).not.toContain(KEY);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('reports a forbidden key (403) from Anthropic, sent as x-api-key with anthropic-version', async () => {
    server.reply({
      status: 403,
      headers: json,
      body: JSON.stringify({ type: 'error', error: { type: 'permission_error', message: 'no access' } }),
    });
    const result = await collectStream({ adapter: adapterFor('anthropic', server.url) });
    expect(result.error?.kind).toBe('auth');
    expect(result.error?.message).toContain('no access');
    expect(server.requests[0]?.headers['x-api-key']).toBe(KEY);
    expect(server.requests[0]?.headers['anthropic-version']).toBe('2023-06-01');
    expect(server.requests[0]?.url).toBe('/v1/messages');
  });

  it('names the missing model on 404 and tells how to pull it from Ollama', async () => {
    server.reply({
      status: 404,
      headers: json,
      body: JSON.stringify({ error: 'model "test-model" not found, try pulling it first' }),
    });
    const result = await collectStream({ adapter: adapterFor('ollama', server.url) });
    expect(result.error?.kind).toBe('model_not_found');
    expect(result.error?.message).toContain('model "test-model" not found');
    expect(result.error?.message).toContain('ollama pull test-model');
  });

  it('retries 429 with backoff before the first byte, then streams', async () => {
    server.reply({ status: 429, headers: json, body: '{"error":{"message":"slow down"}}' }, { body: openAiStream });
    const retries: ModelRetryEvent[] = [];
    const result = await collectStream({
      adapter: adapterFor('openai', server.url, { maxRetries: 2, onRetry: (event) => retries.push(event) }),
    });
    expect(result.error).toBeUndefined();
    expect(result.calls.map((call) => call.name)).toEqual(['lamp_set']);
    expect(server.requests).toHaveLength(2);
    expect(retries).toEqual([{ attempt: 1, status: 429, delayMs: 1 }]);
  });

  it('honours Retry-After when it retries', async () => {
    server.reply({ status: 429, headers: { ...json, 'retry-after': '1' }, body: '{}' }, { body: openAiStream });
    const retries: ModelRetryEvent[] = [];
    const result = await collectStream({
      adapter: adapterFor('openai', server.url, { maxRetries: 1, onRetry: (event) => retries.push(event) }),
    });
    expect(result.error).toBeUndefined();
    expect(retries).toEqual([{ attempt: 1, status: 429, delayMs: 1000 }]);
  });

  it('fails at once with a clear message when Retry-After asks for longer than it may wait', async () => {
    server.reply({ status: 429, headers: { ...json, 'retry-after': '3600' }, body: '{}' });
    const result = await collectStream({
      adapter: adapterFor('openai', server.url, { maxRetries: 3, maxRetryDelayMs: 5000 }),
    });
    expect(result.error?.kind).toBe('rate_limit');
    expect(result.error?.message).toContain('wait 3600 s');
    expect(server.requests).toHaveLength(1);
  });

  it('gives up on 429 after its retries with a rate_limit error', async () => {
    server.reply({ status: 429, headers: json, body: '{"error":{"message":"quota"}}' });
    const result = await collectStream({ adapter: adapterFor('gemini', server.url, { maxRetries: 2 }) });
    expect(result.error?.kind).toBe('rate_limit');
    expect(result.error?.message).toContain('after 2 retries');
    expect(server.requests).toHaveLength(3);
  });

  it('retries 5xx, then streams; and reports a server error once the retries are spent', async () => {
    server.reply({ status: 503, body: 'busy' }, { body: openAiStream });
    const recovered = await collectStream({ adapter: adapterFor('openai', server.url, { maxRetries: 1 }) });
    expect(recovered.error).toBeUndefined();
    server.reply({ status: 500, headers: json, body: '{"error":{"message":"boom"}}' });
    const failed = await collectStream({ adapter: adapterFor('openai', server.url, { maxRetries: 1 }) });
    expect(failed.error?.kind).toBe('server');
    expect(failed.error?.status).toBe(500);
    expect(failed.error?.message).toContain('boom');
  });

  it('says the model does not support tools (Ollama /v1 and native wordings), without retrying', async () => {
    server.reply({
      status: 400,
      headers: json,
      body: '{"error":{"message":"registry.ollama.ai/library/gemma:2b does not support tools","type":"api_error"}}',
    });
    const openai = await collectStream({ adapter: adapterFor('openai', server.url, { maxRetries: 2 }) });
    expect(openai.error?.kind).toBe('no_tool_support');
    expect(openai.error?.message).toContain('does not support tools');
    server.reply({ status: 400, headers: json, body: '{"error":"gemma:2b does not support tools"}' });
    const native = await collectStream({ adapter: adapterFor('ollama', server.url, { maxRetries: 2 }) });
    expect(native.error?.kind).toBe('no_tool_support');
    expect(server.requests).toHaveLength(2);
  });

  it('throws stream_cut after the parts already received when the connection breaks mid-body', async () => {
    const cutAt = openAiStream.indexOf('ice_id');
    server.reply({ body: openAiStream, chunkSize: 16, cutAfterBytes: cutAt });
    const seen: string[] = [];
    const result = await collectStream({
      adapter: adapterFor('openai', server.url),
      onPart: (part: ModelStreamPart) => seen.push(part.type),
    });
    expect(result.error?.kind).toBe('stream_cut');
    expect(seen).toContain('tool-call-delta');
    expect(seen).not.toContain('finish');
    expect(result.calls).toHaveLength(1);
    expect(result.calls[0]?.complete).toBe(false);
  });

  it('times out when no first byte comes', async () => {
    server.reply({ silent: 'before-headers' });
    const result = await collectStream({ adapter: adapterFor('openai', server.url, { firstByteTimeoutMs: 50 }) });
    expect(result.error?.kind).toBe('first_byte_timeout');
  });

  it('times out when the stream stalls after it started, keeping what came before', async () => {
    const firstEvents = openAiStream.subarray(0, openAiStream.indexOf('data:', 10));
    server.reply({ body: firstEvents, silent: 'after-body' });
    const result = await collectStream({ adapter: adapterFor('openai', server.url, { idleTimeoutMs: 50 }) });
    expect(result.error?.kind).toBe('idle_timeout');
    expect(result.parts.some((part) => part.type === 'tool-call-delta')).toBe(true);
  });

  it("stops at once on the caller's abort", async () => {
    const firstEvents = openAiStream.subarray(0, openAiStream.indexOf('data:', 10));
    server.reply({ body: firstEvents, silent: 'after-body' });
    const controller = new AbortController();
    const result = await collectStream({
      adapter: adapterFor('openai', server.url),
      signal: controller.signal,
      onPart: () => controller.abort(),
    });
    expect(result.error?.kind).toBe('aborted');
    const before = new AbortController();
    before.abort();
    const early = await collectStream({ adapter: adapterFor('openai', server.url), signal: before.signal });
    expect(early.error?.kind).toBe('aborted');
    expect(server.requests).toHaveLength(1);
  });

  it('rejects a chunk with a misshapen field as bad_chunk naming the provider and the field', async () => {
    const chunk = {
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index: '0', id: 'call_1', function: { name: 'lamp_set', arguments: '{}' } }] },
        },
      ],
    };
    server.reply({ body: `data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n` });
    const result = await collectStream({ adapter: adapterFor('openai', server.url) });
    expect(result.error?.kind).toBe('bad_chunk');
    expect(result.error?.message).toContain('openai');
    expect(result.error?.message).toContain('choices.0.delta.tool_calls.0.index');
  });

  it('turns an error event in the middle of an Anthropic stream into a server error', async () => {
    const body =
      'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":1}}}\n\nevent: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    server.reply({ body });
    const result = await collectStream({ adapter: adapterFor('anthropic', server.url) });
    expect(result.error?.kind).toBe('server');
    expect(result.error?.message).toContain('Overloaded');
  });
});
