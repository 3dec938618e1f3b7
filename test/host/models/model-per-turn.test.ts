import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHost, type Host } from '../../../host/app/create-host.ts';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import { DEMO_MODEL_LABEL } from '../../../core/models/demo/demo-model.ts';
import { startLoopbackModelServer, type LoopbackModelServer } from '../../helpers/loopback-model-server.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-model-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function server(): Promise<LoopbackModelServer> {
  const started = await startLoopbackModelServer();
  cleanups.push(() => started.close());
  return started;
}

/** An OpenAI-compatible server's answer: a model list for GET /v1/models, a one-line reply otherwise. */
function openAiCompatible(models: string[], reply: string) {
  return (request: { method: string; url: string }) =>
    request.method === 'GET'
      ? {
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model' })) }),
        }
      : {
          headers: { 'content-type': 'text/event-stream' },
          body: `data: {"choices":[{"index":0,"delta":{"content":"${reply}"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n`,
        };
}

async function openHost(options: { transport?: 'web' | 'cli' } = {}) {
  const host = await createHost({
    dataDir: dataDir(),
    transport: options.transport ?? 'web',
    log: () => {},
    version: 'test',
  });
  cleanups.push(() => host.dispose());
  return host;
}

/** Runs a turn and returns its turn/start and turn/end. */
async function turn(host: Host, text: string) {
  const events: AgentEvent[] = [];
  const stop = host.events.subscribe((event) => events.push(event));
  await host.agent.runTurn({ conversationId: 'c1', text });
  stop();
  return {
    start: events.find((event) => event.type === 'turn/start'),
    end: events.find((event) => event.type === 'turn/end'),
    text: events
      .filter((event) => event.type === 'message/assistant')
      .map((event) => (event.type === 'message/assistant' ? event.text : '')),
  };
}

describe('the model of the next turn', () => {
  it('follows a provider and model change saved while the host runs, without a restart', async () => {
    const model = await server();
    model.reply(openAiCompatible(['small-model', 'big-model'], 'hello from the server'));
    const host = await openHost();
    await host.handlers['settings/set']({ key: 'provider', value: 'demo' });
    expect((await turn(host, 'status')).start).toMatchObject({ model: DEMO_MODEL_LABEL });

    await host.handlers['settings/set']({ key: 'provider', value: 'openai' });
    await host.handlers['settings/set']({ key: 'baseUrl', value: `${model.url}/v1` });
    await host.handlers['settings/set']({ key: 'model', value: 'small-model' });
    const second = await turn(host, 'hi');
    expect(second.end).toMatchObject({ reason: 'done' });
    expect(second.text).toEqual(['hello from the server']);
    expect(JSON.parse(model.requests.at(-1)!.body)).toMatchObject({ model: 'small-model' });
    expect((await host.handlers['app/info']({})).model).toMatchObject({
      label: expect.stringContaining('small-model'),
      ok: true,
    });

    await host.handlers['settings/set']({ key: 'model', value: 'big-model' });
    await turn(host, 'again');
    expect(JSON.parse(model.requests.at(-1)!.body)).toMatchObject({ model: 'big-model' });
  });

  it('ends the turn with a message for the person when the saved choice cannot be used, and says so in app/info, in the window’s words', async () => {
    const host = await openHost();
    await host.handlers['settings/set']({ key: 'provider', value: 'openai' });
    const failed = await turn(host, 'hi');
    const inWindow =
      'The openai provider needs a model: fill in Model in Settings ("Show the server’s models" lists what the server offers).';
    expect(failed.end).toMatchObject({ reason: 'error', error: expect.stringContaining(inWindow) });
    const info = await host.handlers['app/info']({});
    expect(info.model).toMatchObject({ ok: false, notice: `The model settings cannot be used: ${inWindow}` });
    // No flag a window cannot take.
    expect(JSON.stringify([failed.end, info.model])).not.toMatch(/--provider|--model|home-agent models/);
  });

  it('starts the window anyway when stored model settings cannot be used, but not a command line that chose them', async () => {
    const dir = dataDir();
    const first = await createHost({ dataDir: dir, transport: 'web', log: () => {}, version: 'test' });
    await first.handlers['settings/set']({ key: 'provider', value: 'anthropic' });
    await first.dispose();
    const again = await createHost({ dataDir: dir, transport: 'web', log: () => {}, version: 'test' });
    cleanups.push(() => again.dispose());
    expect((await again.handlers['app/info']({})).model).toMatchObject({ ok: false });
    await expect(
      createHost({
        dataDir: dataDir(),
        transport: 'web',
        settings: { provider: 'anthropic' },
        log: () => {},
        version: 'test',
      }),
    ).rejects.toThrow(/needs --model/);
  });
});

describe('the model server from the Settings form', () => {
  it('lists the models the server offers, trying unsaved fields first', async () => {
    const model = await server();
    model.reply(openAiCompatible(['small-model', 'big-model'], 'unused'));
    const host = await openHost();
    expect(await host.handlers['models/list']({ provider: 'openai', baseUrl: `${model.url}/v1` })).toEqual({
      ok: true,
      models: [{ id: 'small-model' }, { id: 'big-model' }],
    });
    expect(model.requests.at(-1)).toMatchObject({ method: 'GET', url: '/v1/models' });
  });

  it('tests the connection and says in a sentence what it found', async () => {
    const model = await server();
    model.reply(openAiCompatible(['small-model', 'big-model'], 'unused'));
    const host = await openHost();
    const baseUrl = `${model.url}/v1`;
    expect(await host.handlers['models/test']({ provider: 'openai', baseUrl, model: 'big-model' })).toEqual({
      ok: true,
      message: `Connected to ${baseUrl}: it offers 2 models, big-model among them.`,
    });
    expect(await host.handlers['models/test']({ provider: 'openai', baseUrl, model: 'gpt-5' })).toEqual({
      ok: false,
      message: `Connected to ${baseUrl}: it offers 2 models, but none named gpt-5. It offers: small-model, big-model.`,
    });
    expect(await host.handlers['models/test']({ provider: 'demo' })).toEqual({
      ok: true,
      message: 'The demo model needs no server: nothing to connect to.',
    });
  });

  it('tests the address the form gives: an emptied field (null) is the provider’s default, not the saved address', async () => {
    const model = await server();
    model.reply(openAiCompatible(['small-model'], 'unused'));
    const host = await openHost();
    await host.handlers['settings/set']({ key: 'provider', value: 'ollama' });
    await host.handlers['settings/set']({ key: 'baseUrl', value: model.url });
    const tested = await host.handlers['models/test']({ baseUrl: null, model: 'small-model' });
    // Ollama's default address, where nothing answers here; the saved server is not asked.
    expect(tested.message).toContain('127.0.0.1:11434');
    expect(model.requests).toEqual([]);
    // Without the field, the saved address is the one in the form: that server is asked.
    await host.handlers['models/test']({ model: 'small-model' });
    expect(model.requests).toHaveLength(1);
  });

  it('says plainly when nothing answers at the address', async () => {
    // A port that was just free: nothing answers there.
    const gone = await startLoopbackModelServer();
    const address = gone.url;
    await gone.close();
    const baseUrl = `${address}/v1`;
    const host = await openHost();
    const tested = await host.handlers['models/test']({ provider: 'openai', baseUrl, model: 'm' });
    expect(tested.ok).toBe(false);
    expect(tested.message).toMatch(/^[A-Z].*\.$/);
    expect(tested.message).toContain(address.replace('http://', ''));
  });
});
