import { describe, expect, it } from 'vitest';
import { Agent, type AgentSettings } from '../../../core/agent/agent.ts';
import { InMemoryConversationStore } from '../../../core/agent/conversation-store.ts';
import { AgentEvents } from '../../../core/events/agent-events.ts';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import { PluginRegistry } from '../../../core/plugins/plugin-registry.ts';
import type { ModelAdapter, ModelRequest, ModelStreamPart } from '../../../core/models/model-adapter.ts';
import type { ConversationMessage } from '../../../core/models/conversation-message.ts';
import { ModelError } from '../../../core/models/model-error.ts';
import type { ToolDefinition } from '../../../core/tools/tool-definition.ts';
import { lifecycleProblems } from '../batch/lifecycle-problems.ts';

/** One scripted reply of a hand-written adapter: parts, then optionally a throw or a wait for the abort. */
interface HandReply {
  parts: ModelStreamPart[];
  thenThrow?: Error;
  thenWaitForAbort?: boolean;
}

/** A model adapter written by hand, so a test controls exactly where the stream breaks. */
class HandModel implements ModelAdapter {
  readonly label = 'hand-written test model';
  readonly requests: ModelRequest[] = [];
  constructor(private readonly reply: (n: number) => HandReply) {}

  async *stream(request: ModelRequest, options: { signal: AbortSignal }): AsyncIterable<ModelStreamPart> {
    const reply = this.reply(this.requests.length);
    this.requests.push(request);
    for (const part of reply.parts) yield part;
    if (reply.thenWaitForAbort) {
      await new Promise<void>((resolve) => options.signal.addEventListener('abort', () => resolve(), { once: true }));
      throw new ModelError({ kind: 'aborted', provider: 'test', message: 'the request was aborted' });
    }
    if (reply.thenThrow) throw reply.thenThrow;
  }
}

const toolCall = (index: number, name: string, args: string): ModelStreamPart => ({
  type: 'tool-call-delta',
  index,
  id: `c${index}`,
  name,
  argumentsDelta: args,
});
const finish = (reason: 'stop' | 'tool_calls'): ModelStreamPart => ({ type: 'finish', reason });
const text = (value: string): ModelStreamPart => ({ type: 'text-delta', text: value });

function setup(options: {
  model: ModelAdapter;
  tools: ToolDefinition[];
  settings?: AgentSettings;
  store?: InMemoryConversationStore;
}) {
  const store = options.store ?? new InMemoryConversationStore();
  const agentEvents = new AgentEvents({ journal: store });
  const events: AgentEvent[] = [];
  agentEvents.subscribe((event) => events.push(event));
  const plugins = new PluginRegistry();
  plugins.register({ name: 'test', description: 'test', tools: () => options.tools });
  const agent = new Agent({
    model: () => options.model,
    plugins,
    store,
    events: agentEvents,
    settings: () => options.settings ?? {},
  });
  return { agent, events, store };
}

const count = (events: readonly AgentEvent[], type: AgentEvent['type']) =>
  events.filter((event) => event.type === type).length;

function recordingTool(name: string, ran: string[], declarations: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    name,
    description: name,
    parameters: { type: 'object' },
    parallelSafe: true,
    handler: () => void ran.push(name),
    ...declarations,
  };
}

describe('Agent lifecycle', () => {
  it('balances every start with one end when the model throws before any part', async () => {
    const model = new HandModel(() => ({
      parts: [],
      thenThrow: new ModelError({
        kind: 'server',
        provider: 'test',
        status: 500,
        message: 'The model server failed (HTTP 500).',
      }),
    }));
    const { agent, events } = setup({ model, tools: [] });
    const outcome = await agent.runTurn({ conversationId: 'c1', text: 'hi' });
    expect(outcome).toMatchObject({ reason: 'error', error: 'The model server failed (HTTP 500).' });
    expect(events.map((event) => event.type)).toEqual([
      'turn/start',
      'step/start',
      'request/header',
      'step/end',
      'agent/error',
      'turn/end',
    ]);
    expect(lifecycleProblems(events)).toEqual([]);
    expect(agent.isBusy('c1')).toBe(false);
  });

  it('never runs a half-received tool call when the stream is cut inside it', async () => {
    const ran: string[] = [];
    const model = new HandModel(() => ({
      parts: [text('Switching it on.'), toolCall(0, 'thermo__read', '{}'), toolCall(1, 'lamp__set', '{"on":')],
      thenThrow: new ModelError({ kind: 'stream_cut', provider: 'test', message: 'The stream was cut.' }),
    }));
    const { agent, events, store } = setup({
      model,
      tools: [recordingTool('lamp__set', ran), recordingTool('thermo__read', ran)],
    });
    const outcome = await agent.runTurn({ conversationId: 'c1', text: 'lamp on' });
    expect(outcome.reason).toBe('error');
    expect(outcome.error).toMatch(/^The stream was cut\./);
    expect(outcome.error).toMatch(/thermo__read.*lamp__set/);
    expect(outcome.error).toMatch(/not run/);
    expect(ran).toEqual([]);
    expect(count(events, 'batch/start')).toBe(0);
    expect(lifecycleProblems(events)).toEqual([]);
    // The partial text is kept; no assistant message claims the calls.
    expect(store.loadMessages('c1')).toEqual([
      { role: 'user', text: 'lamp on' },
      { role: 'assistant', text: 'Switching it on.', toolCalls: [] },
    ] satisfies ConversationMessage[]);
  });

  it('never runs a call whose end marker never came, even though the stream finished and the arguments parse', async () => {
    const ran: string[] = [];
    const model = new HandModel(() => ({
      parts: [
        {
          type: 'tool-call-delta',
          index: 0,
          id: 'c0',
          name: 'lamp__set',
          argumentsDelta: '{"on":true}',
          requiresEnd: true,
        },
        finish('tool_calls'),
      ],
    }));
    const { agent, events } = setup({ model, tools: [recordingTool('lamp__set', ran)] });
    const outcome = await agent.runTurn({ conversationId: 'c1', text: 'lamp on' });
    expect(outcome.reason).toBe('error');
    expect(outcome.error).toMatch(/lamp__set/);
    expect(ran).toEqual([]);
    expect(lifecycleProblems(events)).toEqual([]);
  });

  it('balances the batch when a tool throws, and the turn goes on to done', async () => {
    const model = new HandModel((n) =>
      n === 0
        ? { parts: [toolCall(0, 'broken', '{}'), toolCall(1, 'fine', '{}'), finish('tool_calls')] }
        : { parts: [text('one failed'), finish('stop')] },
    );
    const tools = [
      recordingTool('broken', [], {
        handler: () => {
          throw new Error('relay stuck');
        },
      }),
      recordingTool('fine', []),
    ];
    const { agent, events } = setup({ model, tools });
    expect((await agent.runTurn({ conversationId: 'c1', text: 'go' })).reason).toBe('done');
    expect(
      events.filter((event) => event.type === 'tool/end').map((event) => (event.type === 'tool/end' ? event.ok : null)),
    ).toEqual([false, true]);
    expect(count(events, 'batch/start')).toBe(1);
    expect(lifecycleProblems(events)).toEqual([]);
  });

  it('balances everything when the user aborts in the middle of a batch, and answers the running calls aborted', async () => {
    const started: string[] = [];
    let releaseIgnorer!: () => void;
    const ignorerDone = new Promise<void>((resolve) => (releaseIgnorer = resolve));
    const tools = [
      // One call honours its signal; the other ignores it: the batch must not wait for it.
      recordingTool('honours', [], {
        handler: (_args, context) =>
          new Promise<void>((resolve) => {
            started.push('honours');
            context.signal.addEventListener('abort', () => resolve(), { once: true });
          }),
      }),
      recordingTool('ignores', [], {
        handler: async () => {
          started.push('ignores');
          await ignorerDone;
        },
      }),
    ];
    const model = new HandModel(() => ({
      parts: [toolCall(0, 'honours', '{}'), toolCall(1, 'ignores', '{}'), finish('tool_calls')],
    }));
    const { agent, events, store } = setup({ model, tools });
    const done = agent.runTurn({ conversationId: 'c1', text: 'go' });
    await expect.poll(() => started.length).toBe(2);
    expect(agent.abort('c1')).toBe(true);
    const outcome = await done;
    releaseIgnorer();
    expect(outcome.reason).toBe('aborted');
    expect(
      events
        .filter((event) => event.type === 'tool/end')
        .map((event) => (event.type === 'tool/end' ? event.error?.reason : null)),
    ).toEqual(['aborted', 'aborted']);
    expect(lifecycleProblems(events)).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'turn/end', reason: 'aborted' });
    // Each call is still answered once in the conversation, so the next request is well-formed.
    expect(store.loadMessages('c1').filter((message) => message.role === 'tool')).toHaveLength(2);
    expect(agent.isBusy('c1')).toBe(false);
  });

  it('balances everything when the user aborts while the model is streaming', async () => {
    const model = new HandModel(() => ({ parts: [text('Thinking')], thenWaitForAbort: true }));
    const { agent, events } = setup({ model, tools: [] });
    const done = agent.runTurn({ conversationId: 'c1', text: 'go' });
    await expect.poll(() => events.some((event) => event.type === 'text/delta')).toBe(true);
    agent.abort('c1');
    expect((await done).reason).toBe('aborted');
    expect(lifecycleProblems(events)).toEqual([]);
  });

  it('ends with max_steps at the step limit, every step and batch balanced', async () => {
    const ran: string[] = [];
    const model = new HandModel(() => ({ parts: [toolCall(0, 'poll', '{}'), finish('tool_calls')] }));
    const { agent, events } = setup({ model, tools: [recordingTool('poll', ran)], settings: { maxSteps: 3 } });
    const outcome = await agent.runTurn({ conversationId: 'c1', text: 'loop' });
    expect(outcome.reason).toBe('max_steps');
    expect(outcome.error).toMatch(/3 steps/);
    expect([
      count(events, 'step/start'),
      count(events, 'step/end'),
      count(events, 'batch/start'),
      count(events, 'batch/end'),
    ]).toEqual([3, 3, 3, 3]);
    expect(ran).toEqual(['poll', 'poll', 'poll']);
    expect(events.filter((event) => event.type === 'turn/end')).toHaveLength(1);
    expect(lifecycleProblems(events)).toEqual([]);
  });

  it('balances everything when the store fails after the batch (an internal error)', async () => {
    class FailingStore extends InMemoryConversationStore {
      override appendMessage(conversationId: string, message: ConversationMessage): void {
        if (message.role === 'tool') throw new Error('disk full');
        super.appendMessage(conversationId, message);
      }
    }
    const model = new HandModel(() => ({ parts: [toolCall(0, 'a', '{}'), finish('tool_calls')] }));
    const { agent, events } = setup({ model, tools: [recordingTool('a', [])], store: new FailingStore() });
    const outcome = await agent.runTurn({ conversationId: 'c1', text: 'go' });
    expect(outcome).toMatchObject({ reason: 'error', error: 'internal error: disk full' });
    expect(count(events, 'batch/end')).toBe(1);
    expect(lifecycleProblems(events)).toEqual([]);
    expect(agent.isBusy('c1')).toBe(false);
  });

  it('detects an unbalanced journal (the checker itself can fail)', () => {
    const base = { at: 0, conversationId: 'c', turnId: 't' };
    const events: AgentEvent[] = [
      { ...base, type: 'turn/start', text: '', model: '' },
      { ...base, type: 'step/start', step: 1 },
      { ...base, type: 'batch/start', step: 1, batchId: 'b', mode: 'serial', reason: '', calls: [] },
      { ...base, type: 'tool/start', batchId: 'b', callId: 'x', name: 'a', index: 0 },
      { ...base, type: 'step/end', step: 1 },
      { ...base, type: 'turn/end', reason: 'error' },
    ];
    expect(lifecycleProblems(events)).toEqual(['#4 step/end: batch b still open']);
  });
});
