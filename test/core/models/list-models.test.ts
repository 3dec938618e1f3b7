import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listModels } from '../../../core/models/list-models.ts';
import { ModelError } from '../../../core/models/model-error.ts';
import { probeOllama } from '../../../core/models/ollama/probe-ollama.ts';
import { startLoopbackModelServer, type LoopbackModelServer } from '../../helpers/loopback-model-server.ts';

const json = { 'content-type': 'application/json' };

describe('listModels', () => {
  let server: LoopbackModelServer;
  beforeEach(async () => {
    server = await startLoopbackModelServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('reads OpenAI-compatible /v1/models with the bearer key', async () => {
    server.reply({
      headers: json,
      body: '{"object":"list","data":[{"id":"gpt-4o","object":"model"},{"id":"qwen2.5:7b"}]}',
    });
    expect(await listModels({ provider: 'openai', baseUrl: server.url, apiKey: 'k-123' })).toEqual([
      { id: 'gpt-4o' },
      { id: 'qwen2.5:7b' },
    ]);
    expect(server.requests[0]?.url).toBe('/v1/models');
    expect(server.requests[0]?.method).toBe('GET');
    expect(server.requests[0]?.headers.authorization).toBe('Bearer k-123');
  });

  it('reads Ollama /api/tags, also from a base URL given with /v1', async () => {
    server.reply({ headers: json, body: '{"models":[{"name":"llama3.1:8b","size":1},{"name":"qwen2.5:7b"}]}' });
    expect(await listModels({ provider: 'ollama', baseUrl: `${server.url}/v1` })).toEqual([
      { id: 'llama3.1:8b' },
      { id: 'qwen2.5:7b' },
    ]);
    expect(server.requests[0]?.url).toBe('/api/tags');
  });

  it('reads Anthropic /v1/models with display names', async () => {
    server.reply({
      headers: json,
      body: '{"data":[{"id":"claude-sonnet-4-5","display_name":"Claude Sonnet 4.5","type":"model"}],"has_more":false}',
    });
    expect(await listModels({ provider: 'anthropic', baseUrl: server.url, apiKey: 'k' })).toEqual([
      { id: 'claude-sonnet-4-5', name: 'Claude Sonnet 4.5' },
    ]);
    expect(server.requests[0]?.headers['x-api-key']).toBe('k');
  });

  it('reads Gemini /v1beta/models, keeping only models that generate content', async () => {
    server.reply({
      headers: json,
      body: JSON.stringify({
        models: [
          {
            name: 'models/gemini-2.5-flash',
            displayName: 'Gemini 2.5 Flash',
            supportedGenerationMethods: ['generateContent', 'countTokens'],
          },
          { name: 'models/text-embedding-004', displayName: 'Embedding', supportedGenerationMethods: ['embedContent'] },
        ],
      }),
    });
    expect(await listModels({ provider: 'gemini', baseUrl: server.url, apiKey: 'k' })).toEqual([
      { id: 'gemini-2.5-flash', name: 'Gemini 2.5 Flash' },
    ]);
    expect(server.requests[0]?.url).toBe('/v1beta/models?pageSize=1000');
  });

  it('fails with a ModelError naming the field when the list has another shape', async () => {
    server.reply({ headers: json, body: '{"items":[]}' });
    const error = await listModels({ provider: 'openai', baseUrl: server.url }).catch((caught: unknown) => caught);
    expect(ModelError.isInstance(error) && error.kind).toBe('bad_chunk');
    expect((error as Error).message).toContain('data');
  });
});

describe('probeOllama', () => {
  let server: LoopbackModelServer;
  beforeEach(async () => {
    server = await startLoopbackModelServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('is true when /api/version answers like Ollama', async () => {
    server.reply({ headers: json, body: '{"version":"0.12.3"}' });
    expect(await probeOllama(server.url)).toBe(true);
    expect(server.requests[0]?.url).toBe('/api/version');
  });

  it('is false for another server, an error status, or nothing listening', async () => {
    server.reply({ headers: json, body: '{"hello":"world"}' });
    expect(await probeOllama(server.url)).toBe(false);
    server.reply({ status: 404, body: 'not found' });
    expect(await probeOllama(server.url)).toBe(false);
    const gone = await startLoopbackModelServer();
    await gone.close();
    expect(await probeOllama(gone.url)).toBe(false);
  });
});
