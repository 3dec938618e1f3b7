import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModelAdapter, modelConfigSchema } from '../../../core/models/create-model-adapter.ts';
import { DEFAULT_BASE_URLS } from '../../../core/models/provider-defaults.ts';
import { startLoopbackModelServer, type LoopbackModelServer } from '../../helpers/loopback-model-server.ts';
import { collectStream } from './collect-stream.ts';

describe('createModelAdapter', () => {
  let server: LoopbackModelServer;
  beforeEach(async () => {
    server = await startLoopbackModelServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('builds the adapter of each provider, talking to its endpoint', async () => {
    const cases = [
      { provider: 'openai', baseUrl: `${server.url}/v1`, url: '/v1/chat/completions' },
      { provider: 'anthropic', baseUrl: server.url, url: '/v1/messages' },
      { provider: 'gemini', baseUrl: server.url, url: '/v1beta/models/m:streamGenerateContent?alt=sse' },
      { provider: 'ollama', baseUrl: server.url, url: '/api/chat' },
    ] as const;
    server.reply({ status: 401, body: '{}' });
    for (const { provider, baseUrl, url } of cases) {
      const adapter = createModelAdapter({ provider, baseUrl, model: 'm', apiKey: 'k-1234', maxRetries: 0 });
      expect(adapter.label).toBe(`${provider}:m`);
      const result = await collectStream({ adapter });
      expect(result.error?.kind).toBe('auth');
      expect(server.requests.at(-1)?.url).toBe(url);
    }
  });

  it('rejects a configuration with an unknown provider, no model or a non-HTTP base URL', () => {
    expect(modelConfigSchema.safeParse({ provider: 'mistral', model: 'x' }).success).toBe(false);
    expect(modelConfigSchema.safeParse({ provider: 'openai', model: '' }).success).toBe(false);
    expect(modelConfigSchema.safeParse({ provider: 'openai', model: 'x', baseUrl: 'file:///etc' }).success).toBe(false);
    expect(
      modelConfigSchema.safeParse({ provider: 'ollama', model: 'qwen2.5', timeouts: { firstByteMs: 1000 } }).success,
    ).toBe(true);
  });

  it('knows where each provider lives by default', () => {
    expect(DEFAULT_BASE_URLS).toEqual({
      openai: 'https://api.openai.com/v1',
      anthropic: 'https://api.anthropic.com',
      gemini: 'https://generativelanguage.googleapis.com',
      ollama: 'http://127.0.0.1:11434',
    });
  });
});
