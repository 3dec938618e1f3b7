import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentSettings } from '../../../core/agent/assemble-turn.ts';
import { ContextKeeper } from '../../../core/context/context-keeper.ts';
import { InMemoryContextMemory } from '../../../core/context/context-memory.ts';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import { createModelAdapter } from '../../../core/models/create-model-adapter.ts';
import type { ModelProvider } from '../../../core/models/provider-defaults.ts';
import type { Plugin } from '../../../core/plugins/plugin.ts';
import { agentRig } from '../../helpers/agent-rig.ts';
import {
  anthropicLikeServer,
  geminiLikeServer,
  ollamaLikeServer,
  openAiLikeServer,
  type FakeServed,
} from '../../helpers/context-model-servers.ts';
import { startLoopbackModelServer, type LoopbackModelServer } from '../../helpers/loopback-model-server.ts';
import { formatProblems } from '../context/format-problems.ts';

type Header = Extract<AgentEvent, { type: 'request/header' }>;

/** Lamps whose every answer carries a log of `logBytes` bytes, so a few turns fill a small window. */
function chattyLamps(logBytes: number): Plugin {
  return {
    name: 'lamps',
    description: 'lamps',
    tools: () => [
      {
        name: 'lamp__set',
        description: 'Switch a lamp.',
        parameters: { type: 'object', properties: { device_id: { type: 'string' }, on: { type: 'boolean' } } },
        parallelSafe: true,
        handler: (args) => ({ device_id: args.device_id, on: args.on, log: 'l'.repeat(logBytes) }),
      },
    ],
  };
}

const headers = (events: AgentEvent[]): Header[] =>
  events.filter((event): event is Header => event.type === 'request/header');

describe('the context budget, through each adapter and a server that keeps a window', () => {
  let server: LoopbackModelServer;
  let served: FakeServed[];
  beforeEach(async () => {
    server = await startLoopbackModelServer();
    served = [];
  });
  afterEach(async () => {
    await server.close();
  });

  function serve(responder: Parameters<LoopbackModelServer['reply']>[0] & object): void {
    server.reply(responder);
    if (typeof responder === 'function') server.answerLookups(responder);
  }

  function rig(options: {
    provider: ModelProvider;
    settings?: AgentSettings;
    memory?: InMemoryContextMemory;
    logBytes?: number;
  }) {
    const model = createModelAdapter({
      provider: options.provider,
      baseUrl: options.provider === 'openai' ? `${server.url}/v1` : server.url,
      model: 'fake-model',
      maxRetries: 0,
    });
    const memory = options.memory ?? new InMemoryContextMemory();
    return {
      memory,
      ...agentRig({
        model,
        plugins: [chattyLamps(options.logBytes ?? 1200)],
        settings: () => options.settings ?? {},
        context: new ContextKeeper({ memory }),
      }),
    };
  }

  async function turns(
    agent: ReturnType<typeof rig>['agent'],
    count: number,
    conversationId = 'c1',
  ): Promise<string[]> {
    const reasons: string[] = [];
    for (let turn = 1; turn <= count; turn += 1) {
      const outcome = await agent.runTurn({ conversationId, text: `Turn ${turn}: both lamps on, please.` });
      reasons.push(outcome.error ?? outcome.reason);
    }
    return reasons;
  }

  it('openai, contextTokens set: no request ever over the window, older turns left out whole, the journal keeps them all', async () => {
    serve(openAiLikeServer({ limitTokens: 3000, served }));
    const { agent, events, store } = rig({ provider: 'openai', settings: { contextTokens: 3000 } });
    expect(await turns(agent, 10)).toEqual(Array(10).fill('done'));
    expect(served.filter((entry) => entry.status === 400)).toEqual([]);
    expect(server.lookups).toEqual([]); // the setting makes look-ups needless
    for (const request of server.requests)
      expect(formatProblems('openai', JSON.parse(request.body) as Record<string, unknown>)).toEqual([]);
    const last = headers(events).at(-1)!;
    expect(last.contextTokens).toBe(3000);
    expect(last.estimatedTokens).toBeLessThanOrEqual(3000 - 375);
    expect(last.omittedTurns).toBeGreaterThan(0);
    expect(last.omittedBytes).toBeGreaterThan(0);
    // The last request holds the latest turns whole: the person's message first, then the newest ones.
    const sent = JSON.parse(server.requests.at(-1)!.body) as { messages: { role: string; content: unknown }[] };
    expect(sent.messages[1]).toMatchObject({
      role: 'user',
      content: `Turn ${11 - sent.messages.filter((m) => m.role === 'user').length}: both lamps on, please.`,
    });
    expect(store.loadMessages('c1').filter((message) => message.role === 'user')).toHaveLength(10);
  });

  it('openai, nothing says the window: one 400 teaches it, the request is refitted and sent once more, and no other 400 follows', async () => {
    serve(openAiLikeServer({ limitTokens: 3000, served }));
    const { agent, events, memory } = rig({ provider: 'openai' });
    expect(await turns(agent, 10)).toEqual(Array(10).fill('done'));
    const chats = served.filter((entry) => entry.path === '/v1/chat/completions');
    expect(chats.filter((entry) => entry.status === 400)).toHaveLength(1);
    expect(memory.read({ baseUrl: `${server.url}/v1`, model: 'fake-model' })?.windowTokens).toBe(3000);
    // The refused request and its resend are both recorded, in the same step.
    const refusedAt = chats.findIndex((entry) => entry.status === 400);
    const chatHeaders = headers(events);
    expect(chatHeaders[refusedAt]!.step).toBe(chatHeaders[refusedAt + 1]!.step);
    expect(chatHeaders[refusedAt]!.contextTokens).toBeUndefined();
    expect(chatHeaders[refusedAt + 1]!.contextTokens).toBe(3000);
    // The next process (a later `ask`) starts from what was learned: not one 400 on a long conversation.
    served.length = 0;
    const next = rig({ provider: 'openai', memory });
    await turns(next.agent, 3, 'c2');
    await turns(next.agent, 6, 'c2');
    expect(served.filter((entry) => entry.status === 400)).toEqual([]);
  });

  it('openai, a vLLM that says its max_model_len: fitted from the first request, without a 400', async () => {
    serve(openAiLikeServer({ kind: 'vllm', limitTokens: 3000, served, model: 'fake-model' }));
    const { agent, events } = rig({ provider: 'openai' });
    expect(await turns(agent, 10)).toEqual(Array(10).fill('done'));
    expect(served.filter((entry) => entry.status === 400)).toEqual([]);
    expect(headers(events).at(-1)).toMatchObject({ contextTokens: 3000 });
    expect(server.lookups.filter((request) => request.url === '/v1/models')).toHaveLength(1);
  });

  it.each([
    ['anthropic', anthropicLikeServer],
    ['gemini', geminiLikeServer],
  ] as const)('%s: its own 400 wording teaches the window; the turn goes on', async (provider, fake) => {
    serve(fake({ limitTokens: 3000, served }));
    const { agent, memory } = rig({ provider });
    expect(await turns(agent, 10)).toEqual(Array(10).fill('done'));
    expect(served.filter((entry) => entry.status === 400)).toHaveLength(1);
    expect(served.filter((entry) => entry.status === 200).every((entry) => entry.promptTokens! <= 3000)).toBe(true);
    expect(memory.read({ baseUrl: server.url, model: 'fake-model' })?.windowTokens).toBe(3000);
    expect(server.lookups).toEqual([]);
    for (const request of server.requests.filter((_, index) => served[index]!.status === 200))
      expect(formatProblems(provider, JSON.parse(request.body) as Record<string, unknown>)).toEqual([]);
  });

  it('ollama: every request says num_ctx, the setting capped by the model’s own length, and fits it', async () => {
    serve(ollamaLikeServer({ modelLength: 3000, served }));
    const { agent, events } = rig({ provider: 'ollama', settings: { ollamaNumCtx: 4096 } });
    expect(await turns(agent, 10)).toEqual(Array(10).fill('done'));
    const bodies = server.requests.map((request) => JSON.parse(request.body) as { options?: { num_ctx?: number } });
    expect(bodies.map((body) => body.options?.num_ctx)).toEqual(Array(bodies.length).fill(3000));
    expect(served.filter((entry) => entry.cut)).toEqual([]);
    expect(events.filter((event) => event.type === 'context/warning')).toEqual([]);
    expect(headers(events).at(-1)).toMatchObject({ contextTokens: 3000 });
    expect(headers(events).at(-1)!.omittedTurns).toBeGreaterThan(0);
  });

  it('ollama: a request it cut from the front (prompt_eval_count = num_ctx) is a warning naming the setting, and the next one fits', async () => {
    serve(ollamaLikeServer({ modelLength: 131072, served }));
    // What was learned is wrong (8 bytes a token): the estimate runs short and Ollama cuts.
    const memory = new InMemoryContextMemory();
    memory.write({ baseUrl: server.url, model: 'fake-model' }, { bytesPerToken: 8 });
    const { agent, events, store } = rig({
      provider: 'ollama',
      settings: { ollamaNumCtx: 2048 },
      memory,
      logBytes: 600,
    });
    // A conversation already long when this process starts.
    store.ensureConversation('c1', 'long');
    for (let turn = 0; turn < 20; turn += 1) {
      store.appendMessage('c1', { role: 'user', text: `Earlier question ${turn}` });
      store.appendMessage('c1', {
        role: 'assistant',
        text: `Earlier answer ${turn}: ${'a'.repeat(500)}`,
        toolCalls: [],
      });
    }
    await turns(agent, 3);
    const warnings = events.filter((event) => event.type === 'context/warning');
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings[0]).toMatchObject({ message: expect.stringContaining('ollamaNumCtx') });
    expect(warnings[0]).toMatchObject({ message: expect.stringContaining('2,048 tokens') });
    const chats = served.filter((entry) => entry.path === '/api/chat');
    expect(chats[0]!.cut).toBe(true);
    expect(chats.slice(1).filter((entry) => entry.cut)).toEqual([]);
  });

  it('a turn whose own part cannot fit ends with the numbers and what to do; nothing is sent', async () => {
    serve(openAiLikeServer({ served }));
    const { agent, events } = rig({ provider: 'openai', settings: { contextTokens: 2000 } });
    const outcome = await agent.runTurn({ conversationId: 'c1', text: `Read this: ${'z'.repeat(20_000)}` });
    expect(outcome.reason).toBe('error');
    expect(outcome.error).toMatch(
      /needs about [\d,]+ tokens .* but openai:fake-model has 2,000 \(the setting contextTokens\)/,
    );
    expect(outcome.error).toContain('Disable plugins you do not need');
    expect(server.requests).toEqual([]);
    expect(headers(events)).toEqual([]);
  });

  it('calibrates the token size from the usage the server reports', async () => {
    serve(openAiLikeServer({ served }));
    const { agent, memory } = rig({ provider: 'openai', settings: { contextTokens: 100_000 } });
    await turns(agent, 1);
    const ratio = memory.read({ baseUrl: `${server.url}/v1`, model: 'fake-model' })?.bytesPerToken;
    // The fake counts 4 bytes of its own JSON a token; its JSON is a little longer than what is counted.
    expect(ratio).toBeGreaterThan(2.5);
    expect(ratio).toBeLessThan(4.5);
  });
});
