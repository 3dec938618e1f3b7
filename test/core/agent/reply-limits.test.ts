import { afterEach, describe, expect, it, vi } from 'vitest';
import { agentRig, lampSetPlugin } from '../../helpers/agent-rig.ts';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import { createModelAdapter } from '../../../core/models/create-model-adapter.ts';
import type { AgentSettings } from '../../../core/agent/assemble-turn.ts';
import { TextDeltaCoalescer } from '../../../core/agent/text-delta-coalescer.ts';
import { startLoopbackModelServer, type LoopbackModelServer } from '../../helpers/loopback-model-server.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(): Promise<LoopbackModelServer> {
  const started = await startLoopbackModelServer();
  cleanups.push(() => started.close());
  return started;
}

/** One OpenAI-style SSE chunk carrying text. */
const textChunk = (text: string) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text } }] })}\n\n`;

async function turn(options: { baseUrl: string; settings: AgentSettings; ran?: string[] }) {
  const { agent, store } = agentRig({
    model: createModelAdapter({ provider: 'openai', baseUrl: options.baseUrl, model: 'test-model', maxRetries: 0 }),
    plugins: [lampSetPlugin(options.ran ?? [])],
    settings: () => options.settings,
  });
  const outcome = await agent.runTurn({ conversationId: 'c1', text: 'hello' });
  return { outcome, journal: store.events };
}

describe('the overall deadline of a reply', () => {
  it('stops a server that only sends keep-alive comments, names the setting, and lets the connection go', async () => {
    const model = await server();
    model.reply({ body: textChunk('Thinking'), trickle: { text: ': keep-alive\n\n', everyMs: 50 } });
    const { outcome } = await turn({ baseUrl: `${model.url}/v1`, settings: { replyTimeoutMs: 1000 } });
    expect(outcome.reason).toBe('error');
    expect(outcome.error).toMatch(/took longer than 1 s \(replyTimeoutMs\)/);
    await model.waitForClientClose(1);
  });
});

describe('the size budget of a reply', () => {
  it('stops a reply that grows past replyMaxBytes, runs none of its calls, and journals a handful of deltas', async () => {
    const model = await server();
    const chunks = Array.from({ length: 400 }, (_, i) => textChunk(`${String(i).padStart(4, '0')} `.repeat(10)));
    const call = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'k', function: { name: 'lamp__set', arguments: '{}' } }] } }] })}\n\n`;
    model.reply({ body: [...chunks, call, 'data: [DONE]\n\n'].join(''), chunkSize: 512 });
    const ran: string[] = [];
    const { outcome, journal } = await turn({ baseUrl: `${model.url}/v1`, settings: { replyMaxBytes: 4096 }, ran });
    expect(outcome.reason).toBe('error');
    expect(outcome.error).toMatch(/grew past 4096 bytes \(replyMaxBytes\)/);
    expect(ran).toEqual([]);
    const deltas = journal.filter((event: AgentEvent) => event.type === 'text/delta');
    const text = deltas.map((event) => (event.type === 'text/delta' ? event.text : '')).join('');
    expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(4096);
    expect(deltas.length).toBeLessThan(10);
  });
});

describe('TextDeltaCoalescer', () => {
  it('sends the first text at once, joins what follows within the interval, and sends the rest on flush', () => {
    vi.useFakeTimers();
    let now = 0;
    const sent: string[] = [];
    const coalescer = new TextDeltaCoalescer(
      (text) => sent.push(text),
      50,
      () => now,
    );
    coalescer.push('a');
    coalescer.push('b');
    coalescer.push('c');
    expect(sent).toEqual(['a']);
    now = 50;
    vi.advanceTimersByTime(50);
    expect(sent).toEqual(['a', 'bc']);
    coalescer.push('d');
    coalescer.flush();
    expect(sent).toEqual(['a', 'bc', 'd']);
    coalescer.flush();
    expect(sent).toEqual(['a', 'bc', 'd']);
  });
});
