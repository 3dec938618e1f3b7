import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { selectModel, ModelConfigError } from '../../../host/models/select-model.ts';
import { DEMO_MODEL_LABEL } from '../../../core/models/demo/demo-model.ts';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

async function fakeOllama(models: string[]): Promise<string> {
  const server = http.createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    if (request.url === '/api/version') response.end(JSON.stringify({ version: '0.9.0' }));
    else if (request.url === '/api/tags')
      response.end(JSON.stringify({ models: models.map((name) => ({ name, model: name })) }));
    else response.writeHead(404).end('{}');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function closedPort(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

describe('selectModel', () => {
  it('uses a local Ollama with its first model when nothing is configured and one answers', async () => {
    const baseUrl = await fakeOllama(['qwen2.5:7b', 'llama3.1:8b']);
    const selected = await selectModel({ baseUrl });
    expect(selected.adapter.label).toContain('qwen2.5:7b');
    expect(selected.notice).toContain(`using Ollama at ${baseUrl} with qwen2.5:7b`);
  });

  it('falls back to the demo model, saying why, when no Ollama answers', async () => {
    const baseUrl = await closedPort();
    const selected = await selectModel({ baseUrl });
    expect(selected.adapter.label).toBe(DEMO_MODEL_LABEL);
    expect(selected.notice).toContain('no Ollama answers');
  });

  it('falls back to the demo model when Ollama answers without any model pulled', async () => {
    const selected = await selectModel({ baseUrl: await fakeOllama([]) });
    expect(selected.adapter.label).toBe(DEMO_MODEL_LABEL);
    expect(selected.notice).toContain('no model pulled');
  });

  it('asks for --model when a provider is given without one, and names an unset key variable', async () => {
    await expect(selectModel({ provider: 'openai' })).rejects.toThrow(ModelConfigError);
    await expect(selectModel({ provider: 'openai' })).rejects.toThrow(/needs --model/);
    await expect(
      selectModel({ provider: 'anthropic', model: 'm', apiKeyEnv: 'HOME_AGENT_TEST_UNSET_KEY' }),
    ).rejects.toThrow(/HOME_AGENT_TEST_UNSET_KEY.*not set/);
  });
});

describe('selectModel API keys', () => {
  it('sends the key from the OS keychain when no variable is named, and never prints it', async () => {
    const seen: string[] = [];
    const server = http.createServer((request, response) => {
      seen.push(String(request.headers['x-api-key'] ?? ''));
      response
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}');
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const selected = await selectModel(
      { provider: 'anthropic', model: 'claude-test', baseUrl },
      { storedApiKey: (provider) => (provider === 'anthropic' ? 'sk-from-keychain-42' : undefined) },
    );
    const failure = await (async () => {
      for await (const _part of selected.adapter.stream(
        { system: '', messages: [{ role: 'user', text: 'hi' }], tools: [] },
        { signal: AbortSignal.timeout(5000) },
      ))
        void _part;
    })().catch((error: unknown) => error as Error);
    expect(seen).toEqual(['sk-from-keychain-42']);
    expect(String((failure as Error).message)).not.toContain('sk-from-keychain-42');
  });
});
