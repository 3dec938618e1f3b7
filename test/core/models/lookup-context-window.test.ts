import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withinLookupDeadline } from '../../../core/models/http/adapter-context.ts';
import type { ModelProvider } from '../../../core/models/provider-defaults.ts';
import { providerManifest } from '../../../core/models/provider-manifests.ts';
import { startLoopbackModelServer, type LoopbackModelServer } from '../../helpers/loopback-model-server.ts';
import { ollamaLikeServer, openAiLikeServer, type OpenAiServerKind } from '../../helpers/context-model-servers.ts';

const never = new AbortController().signal;

/** A provider's look-up of a window, as its adapters make it (within the deadline, 2 s unless given). */
function lookupContextWindow(options: {
  provider: ModelProvider;
  baseUrl: string;
  model: string;
  headers: Record<string, string>;
  signal: AbortSignal;
  timeoutMs?: number;
}): Promise<number | undefined> {
  const lookup = providerManifest(options.provider).lookupWindow;
  if (!lookup) return Promise.resolve(undefined);
  const { baseUrl, model, headers } = options;
  return lookup({ baseUrl, model, headers, signal: withinLookupDeadline(options.signal, options.timeoutMs) });
}

describe('a provider’s look-up of a context window', () => {
  let server: LoopbackModelServer;
  beforeEach(async () => {
    server = await startLoopbackModelServer();
  });
  afterEach(async () => {
    await server.close();
  });

  const ask = (provider: 'openai' | 'ollama', baseUrl: string, model = 'fake-model') =>
    lookupContextWindow({ provider, baseUrl, model, headers: { authorization: 'Bearer sk-x' }, signal: never });

  it('reads Ollama’s /api/show: the model’s own length under its architecture', async () => {
    server.answerLookups(ollamaLikeServer({ modelLength: 131072 }));
    expect(await ask('ollama', server.url, 'llama3.1')).toBe(131072);
    expect(server.lookups.map((request) => [request.method, request.url])).toEqual([['POST', '/api/show']]);
    expect(JSON.parse(server.lookups[0]!.body)).toMatchObject({ model: 'llama3.1' });
  });

  it.each([
    ['llama.cpp', 8192],
    ['lm-studio', 6144],
    ['vllm', 32768],
    ['openrouter', 200000],
  ] as [OpenAiServerKind, number][])('reads what a %s server says of the model', async (kind, window) => {
    server.answerLookups(openAiLikeServer({ kind, limitTokens: window }));
    expect(await ask('openai', `${server.url}/v1`)).toBe(window);
    // The key goes with each look-up, as the server may want it.
    expect(server.lookups.every((request) => request.headers.authorization === 'Bearer sk-x')).toBe(true);
  });

  it('takes a server that lists the model without a window, or answers 404 everywhere, as not saying', async () => {
    server.answerLookups(openAiLikeServer({ kind: 'openai', limitTokens: 8192 }));
    expect(await ask('openai', `${server.url}/v1`)).toBeUndefined();
    expect(server.lookups.map((request) => request.url).sort()).toEqual(['/api/v0/models', '/props', '/v1/models']);
    server.answerLookups(() => ({ status: 404, body: 'Not Found' }));
    expect(await ask('ollama', server.url)).toBeUndefined();
  });

  it('takes another shape, a body that is not JSON, and a model it does not list as not saying', async () => {
    server.answerLookups((request) =>
      request.url === '/props'
        ? { body: '<html>props</html>' }
        : { body: JSON.stringify({ data: [{ id: 'another-model', max_model_len: 4096 }], n_ctx: 'many' }) },
    );
    expect(await ask('openai', `${server.url}/v1`)).toBeUndefined();
    server.answerLookups(() => ({ body: JSON.stringify({ model_info: { 'general.architecture': 'llama' } }) }));
    expect(await ask('ollama', server.url)).toBeUndefined();
  });

  it('reads no more than 8 MiB of an answer: a larger one says nothing', async () => {
    const padding = 'x'.repeat(9 * 1024 * 1024);
    server.answerLookups(() => ({
      body: JSON.stringify({ data: [{ id: 'fake-model', max_model_len: 4096, padding }] }),
      chunkSize: 1024 * 1024,
    }));
    expect(await ask('openai', `${server.url}/v1`)).toBeUndefined();
    server.answerLookups(() => ({ body: JSON.stringify({ data: [{ id: 'fake-model', max_model_len: 4096 }] }) }));
    expect(await ask('openai', `${server.url}/v1`)).toBe(4096);
  });

  it('gives up on a server that never answers, saying nothing', async () => {
    server.answerLookups(() => ({ silent: 'before-headers' }));
    const found = await lookupContextWindow({
      provider: 'openai',
      baseUrl: `${server.url}/v1`,
      model: 'fake-model',
      headers: {},
      signal: never,
      timeoutMs: 300,
    });
    expect(found).toBeUndefined();
  });

  it('asks no server for Anthropic and Gemini models (their windows are documented)', async () => {
    for (const provider of ['anthropic', 'gemini'] as const)
      expect(await lookupContextWindow({ provider, baseUrl: server.url, model: 'm', headers: {}, signal: never })).toBe(
        undefined,
      );
    expect(server.lookups).toHaveLength(0);
    expect(server.requests).toHaveLength(0);
  });
});
