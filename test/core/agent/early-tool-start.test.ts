import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../../core/agent/agent.ts';
import { InMemoryConversationStore } from '../../../core/agent/conversation-store.ts';
import type { AgentSettings } from '../../../core/agent/assemble-turn.ts';
import { AgentEvents } from '../../../core/events/agent-events.ts';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import { createAnthropicAdapter } from '../../../core/models/anthropic/create-anthropic-adapter.ts';
import { createOpenAiAdapter } from '../../../core/models/openai/create-openai-adapter.ts';
import type { ApprovalGate } from '../../../core/batch/run-tool-call.ts';
import { PluginRegistry } from '../../../core/plugins/plugin-registry.ts';
import type { ModelAdapter } from '../../../core/models/model-adapter.ts';
import type { ToolDefinition } from '../../../core/tools/tool-definition.ts';
import { startLoopbackModelServer, type LoopbackModelServer } from '../../helpers/loopback-model-server.ts';
import {
  anthropicBlockStop,
  anthropicEnd,
  anthropicStart,
  anthropicText,
  anthropicToolOpen,
} from '../../helpers/anthropic-stream.ts';
import { lifecycleProblems } from '../batch/lifecycle-problems.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const deviceParameters = { type: 'object', properties: { device_id: { type: 'string' } } } as const;

/** What the handlers did, in order: `enter 0`, `exit 0`, … by call index (`args.n`). */
type Log = string[];

/** A device tool whose handler logs its call and then waits for `wait(n)` (immediate when absent). */
function tool(options: {
  name: string;
  log: Log;
  parallelSafe?: boolean;
  serial?: boolean;
  wait?: (n: number, signal: AbortSignal) => Promise<void>;
  reportsDelivery?: boolean;
}): ToolDefinition {
  return {
    name: options.name,
    description: options.name,
    parameters: { ...deviceParameters, properties: { ...deviceParameters.properties, n: { type: 'number' } } },
    ...(options.parallelSafe ? { parallelSafe: true } : {}),
    ...(options.serial ? { serial: true } : {}),
    ...(options.reportsDelivery ? { reportsDelivery: true } : {}),
    handler: async (args, context) => {
      const n = Number(args.n);
      options.log.push(`enter ${n}`);
      if (options.reportsDelivery) context.markSent();
      await options.wait?.(n, context.signal);
      options.log.push(`exit ${n}`);
      return { device_id: args.device_id, result: { n } };
    },
  };
}

/**
 * An Agent on the Anthropic adapter (or the OpenAI one) against a loopback server, with `until` to
 * wait for an event and the approval gate `approve` when given.
 */
async function rig(options: {
  tools: ToolDefinition[];
  settings?: AgentSettings;
  format?: 'anthropic' | 'openai';
  approve?: ApprovalGate;
}) {
  const server: LoopbackModelServer = await startLoopbackModelServer();
  cleanups.push(() => server.close());
  const store = new InMemoryConversationStore();
  const agentEvents = new AgentEvents({ journal: store });
  const events: AgentEvent[] = [];
  const waiters: { test: (event: AgentEvent) => boolean; resolve: (event: AgentEvent) => void }[] = [];
  agentEvents.subscribe((event) => {
    events.push(event);
    for (const waiter of waiters.filter((entry) => entry.test(event))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(event);
    }
  });
  const until = (test: (event: AgentEvent) => boolean): Promise<AgentEvent> => {
    const seen = events.find(test);
    return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ test, resolve }));
  };
  const plugins = new PluginRegistry();
  plugins.register({ name: 'test', description: 'test', tools: () => options.tools });
  const anthropic =
    options.format === 'openai'
      ? createOpenAiAdapter({ baseUrl: `${server.url}/v1`, model: 'loopback', apiKey: 'test-key', maxRetries: 0 })
      : createAnthropicAdapter({ baseUrl: server.url, model: 'loopback', apiKey: 'test-key', maxRetries: 0 });
  // Tells when the adapter's stream of a reply is over (whole or cut), for handlers that must outlive it.
  const streamEnds: (() => void)[] = [];
  const model: ModelAdapter = {
    label: anthropic.label,
    async *stream(request, streamOptions) {
      try {
        yield* anthropic.stream(request, streamOptions);
      } finally {
        for (const end of streamEnds.splice(0)) end();
      }
    },
  };
  /**
   * Resolves once the reply's stream is over and the agent has taken that in: what runs between
   * them is promise callbacks only (no I/O, no timer), all done before the next setImmediate.
   */
  const replyOver = (): Promise<void> =>
    new Promise<void>((resolve) => streamEnds.push(resolve)).then(
      () => new Promise<void>((resolve) => setImmediate(resolve)),
    );
  const agent = new Agent({
    model: () => model,
    plugins,
    store,
    events: agentEvents,
    settings: () => options.settings ?? {},
    ...(options.approve ? { approve: options.approve } : {}),
  });
  return { server, store, events, until, agent, replyOver };
}

const call = (index: number, name: string, device = `lamp-${index + 1}`) => ({
  index,
  id: `toolu_${index}`,
  name,
  args: { device_id: device, n: index },
});

function toolStartOf(events: AgentEvent[], index: number) {
  return events.find((event) => event.type === 'tool/start' && event.index === index);
}

function position(events: AgentEvent[], test: (event: AgentEvent) => boolean): number {
  return events.findIndex(test);
}

/** One OpenAI Chat Completions stream chunk (SSE), as the real API sends it. */
function openAiChunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
  const chunk = { id: 'chatcmpl-loopback', object: 'chat.completion.chunk', model: 'loopback' };
  return `data: ${JSON.stringify({ ...chunk, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
}

/** A whole OpenAI-format tool call in one fragment at `index`: nothing on the wire says it is final. */
function openAiCall(call: { index: number; id: string; name: string; args: object }): string {
  return openAiChunk({
    tool_calls: [
      {
        index: call.index,
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: JSON.stringify(call.args) },
      },
    ],
  });
}

/** The model's last reply of a turn: text only. */
const done = {
  pieces: async function* () {
    yield anthropicStart() + anthropicText(0, 'Done.') + anthropicEnd('end_turn');
  },
};

describe('early tool start (calls start while the reply streams)', () => {
  it('starts call 0 at its content_block_stop, before the reply ends; batch/open comes first', async () => {
    const log: Log = [];
    const { server, events, until, agent } = await rig({
      tools: [tool({ name: 'lamp__get', log, parallelSafe: true })],
    });
    server.reply(
      {
        pieces: async function* () {
          yield anthropicStart() + anthropicText(0, 'Reading.') + anthropicToolOpen(call(1, 'lamp__get'));
          yield anthropicBlockStop(1);
          // The rest of the reply is sent only once call 0 has run: it must have started on its own.
          await until((event) => event.type === 'tool/end');
          yield anthropicToolOpen(call(2, 'lamp__get')) + anthropicBlockStop(2) + anthropicEnd();
        },
      },
      done,
    );
    const outcome = await agent.runTurn({ conversationId: 'c1', text: 'read both lamps' });
    expect(outcome.reason).toBe('done');
    const types = events.map((event) => event.type);
    expect(types.indexOf('batch/open')).toBeLessThan(types.indexOf('tool/start'));
    expect(toolStartOf(events, 0)).toMatchObject({ early: true, args: { device_id: 'lamp-2', n: 1 } });
    expect(position(events, (event) => event === toolStartOf(events, 0))).toBeLessThan(
      types.indexOf('message/assistant'),
    );
    // Call 1 became complete after call 0 ended, while the reply still streamed: it started early too.
    expect(toolStartOf(events, 1)).toMatchObject({ early: true });
    expect(events.find((event) => event.type === 'batch/start')).toMatchObject({
      mode: 'parallel',
      calls: [
        { index: 0, callId: 'toolu_1' },
        { index: 1, callId: 'toolu_2' },
      ],
    });
    expect(lifecycleProblems(events)).toEqual([]);
  });

  it('with earlyToolStart off, nothing starts before the reply ends', async () => {
    const log: Log = [];
    const { server, events, agent } = await rig({
      tools: [tool({ name: 'lamp__get', log, parallelSafe: true })],
      settings: { earlyToolStart: 'off' },
    });
    server.reply(
      {
        pieces: async function* () {
          yield anthropicStart() + anthropicToolOpen(call(0, 'lamp__get')) + anthropicBlockStop(0);
          yield anthropicToolOpen(call(1, 'lamp__get')) + anthropicBlockStop(1) + anthropicEnd();
        },
      },
      done,
    );
    expect((await agent.runTurn({ conversationId: 'c1', text: 'read' })).reason).toBe('done');
    const types = events.map((event) => event.type);
    expect(types.indexOf('tool/start')).toBeGreaterThan(types.indexOf('batch/start'));
    expect(events.some((event) => event.type === 'tool/start' && event.early)).toBe(false);
  });

  it('never lets a serial tool overlap another call: the batch goes on in order once the reply ends', async () => {
    const log: Log = [];
    let replyEnded: () => void = () => {};
    const ended = new Promise<void>((resolve) => (replyEnded = resolve));
    const { server, events, until, agent } = await rig({
      tools: [
        // Call 0 holds on until the whole reply is in: call 1 (serial) is complete meanwhile.
        tool({ name: 'lamp__get', log, parallelSafe: true, wait: (n) => (n === 0 ? ended : Promise.resolve()) }),
        tool({ name: 'relay__set', log, serial: true }),
      ],
    });
    server.reply(
      {
        pieces: async function* () {
          yield anthropicStart() + anthropicToolOpen(call(0, 'lamp__get')) + anthropicBlockStop(0);
          await until((event) => event.type === 'tool/start' && event.index === 0);
          yield anthropicToolOpen(call(1, 'relay__set', 'relay-1')) + anthropicBlockStop(1);
          yield anthropicToolOpen(call(2, 'lamp__get')) + anthropicBlockStop(2) + anthropicEnd();
          await until((event) => event.type === 'message/assistant');
          replyEnded();
        },
      },
      done,
    );
    expect((await agent.runTurn({ conversationId: 'c1', text: 'relay' })).reason).toBe('done');
    // One call at a time, in index order: no enter between another call's enter and exit.
    expect(log).toEqual(['enter 0', 'exit 0', 'enter 1', 'exit 1', 'enter 2', 'exit 2']);
    expect(events.find((event) => event.type === 'batch/start')).toMatchObject({ mode: 'serial' });
    expect(toolStartOf(events, 0)).toMatchObject({ early: true });
    expect(toolStartOf(events, 1)).not.toHaveProperty('early');
  });

  it('starts every remaining call of a parallel batch at once when the reply ends', async () => {
    const log: Log = [];
    // Calls 1–3 each wait until all three have entered, and call 0 until they have: only a batch
    // that starts the rest at once, while call 0 still runs, ever gets past this.
    let entered = 0;
    let allEntered: () => void = () => {};
    const barrier = new Promise<void>((resolve) => (allEntered = resolve));
    const { server, until, events, agent } = await rig({
      tools: [
        tool({
          name: 'lamp__get',
          log,
          parallelSafe: true,
          wait: (n) => {
            if (n > 0 && ++entered === 3) allEntered();
            return barrier;
          },
        }),
      ],
    });
    server.reply(
      {
        pieces: async function* () {
          yield anthropicStart() + anthropicToolOpen(call(0, 'lamp__get')) + anthropicBlockStop(0);
          await until((event) => event.type === 'tool/start' && event.index === 0);
          for (const index of [1, 2, 3]) yield anthropicToolOpen(call(index, 'lamp__get')) + anthropicBlockStop(index);
          yield anthropicEnd();
        },
      },
      done,
    );
    expect((await agent.runTurn({ conversationId: 'c1', text: 'all lamps' })).reason).toBe('done');
    expect(log.slice(0, 4)).toEqual(['enter 0', 'enter 1', 'enter 2', 'enter 3']);
    expect(events.find((event) => event.type === 'batch/start')).toMatchObject({ mode: 'parallel' });
  }, 20_000);

  it('never starts a multi_tool_use.parallel wrapper, nor what follows it, before the reply ends', async () => {
    const log: Log = [];
    const { server, events, agent } = await rig({
      tools: [tool({ name: 'lamp__get', log, parallelSafe: true })],
    });
    const wrapper = {
      index: 0,
      id: 'toolu_w',
      name: 'multi_tool_use.parallel',
      args: { tool_uses: [{ recipient_name: 'functions.lamp__get', parameters: { device_id: 'lamp-1', n: 0 } }] },
    };
    server.reply(
      {
        pieces: async function* () {
          yield anthropicStart() + anthropicToolOpen(wrapper) + anthropicBlockStop(0);
          yield anthropicToolOpen(call(1, 'lamp__get')) + anthropicBlockStop(1);
          yield anthropicEnd();
        },
      },
      done,
    );
    expect((await agent.runTurn({ conversationId: 'c1', text: 'lamps' })).reason).toBe('done');
    const types = events.map((event) => event.type);
    expect(types.indexOf('tool/start')).toBeGreaterThan(types.indexOf('message/assistant'));
    expect(events.some((event) => event.type === 'tool/start' && event.early)).toBe(false);
    expect(log).toContain('enter 0');
  });

  it('after a cut reply, the call that started finishes, a complete one never started is not sent, and the error names them', async () => {
    const log: Log = [];
    let over: Promise<void> = Promise.resolve();
    const { server, events, until, agent, store, replyOver } = await rig({
      // Call 0 runs until the stream has been cut and the agent knows it: it started, so it must finish.
      tools: [tool({ name: 'lamp__get', log, parallelSafe: true, wait: (n) => (n === 0 ? over : Promise.resolve()) })],
    });
    over = replyOver();
    server.reply({
      pieces: async function* () {
        yield anthropicStart() + anthropicToolOpen(call(0, 'lamp__get')) + anthropicBlockStop(0);
        await until((event) => event.type === 'tool/start' && event.index === 0);
        // Call 1 is complete while call 0 runs; call 2 never gets its content_block_stop: the stream ends.
        yield anthropicToolOpen(call(1, 'lamp__get')) + anthropicBlockStop(1) + anthropicToolOpen(call(2, 'lamp__get'));
      },
    });
    const outcome = await agent.runTurn({ conversationId: 'c1', text: 'lamps' });
    expect(outcome.reason).toBe('error');
    expect(outcome.error).toContain('ended before message_stop');
    expect(outcome.error).toContain('lamp__get (call 1) had started while the reply streamed and ran to its end');
    expect(outcome.error).toContain('lamp__get (call 2) never started (not sent)');
    expect(log).toEqual(['enter 0', 'exit 0']);
    const ends = events.filter((event) => event.type === 'tool/end');
    expect(ends.map((event) => [event.callId, event.outcome])).toEqual([
      ['toolu_0', 'done'],
      ['toolu_1', 'not_sent'],
    ]);
    expect(events.some((event) => event.type === 'tool/start' && event.callId !== 'toolu_0')).toBe(false);
    expect(events.find((event) => event.type === 'batch/start')).toMatchObject({
      mode: 'serial',
      calls: [{ callId: 'toolu_0' }, { callId: 'toolu_1' }],
    });
    expect(lifecycleProblems(events)).toEqual([]);
    // Every complete call stored with its answer, once; the incomplete one not at all.
    const messages = await store.loadMessages('c1');
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
    expect(messages[1]).toMatchObject({ toolCalls: [{ id: 'toolu_0' }, { id: 'toolu_1' }] });
    expect(messages.slice(2).map((message) => (message.role === 'tool' ? message.isError : undefined))).toEqual([
      false,
      true,
    ]);
  });

  it('after Stop during the stream, the early call is answered and its device read back', async () => {
    const log: Log = [];
    let handlerEntered: () => void = () => {};
    const entered = new Promise<void>((resolve) => (handlerEntered = resolve));
    const tools = [
      tool({
        name: 'lamp__set',
        log,
        reportsDelivery: true,
        // It has sent its request and waits for an answer that never comes: only the Stop ends it.
        wait: (_n, signal) => {
          handlerEntered();
          return new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
        },
      }),
      { ...tool({ name: 'lamp__get', log, parallelSafe: true }), handler: () => ({ on: true }) },
    ];
    const { server, events, agent, store } = await rig({ tools });
    server.reply({
      pieces: async function* (gone) {
        yield anthropicStart() + anthropicToolOpen(call(0, 'lamp__set')) + anthropicBlockStop(0);
        await entered;
        agent.abort('c1');
        await new Promise((resolve) => gone.addEventListener('abort', resolve));
      },
    });
    const outcome = await agent.runTurn({ conversationId: 'c1', text: 'lamp on' });
    expect(outcome.reason).toBe('aborted');
    expect(events.find((event) => event.type === 'tool/end')).toMatchObject({ callId: 'toolu_0', outcome: 'unknown' });
    const types = events.map((event) => event.type);
    expect(events.find((event) => event.type === 'device/state')).toMatchObject({
      deviceId: 'lamp-1',
      tool: 'lamp__get',
      callIds: ['toolu_0'],
      result: { on: true },
    });
    expect(types.indexOf('device/state')).toBeLessThan(types.indexOf('turn/end'));
    const messages = await store.loadMessages('c1');
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(lifecycleProblems(events)).toEqual([]);
  });

  it('starts nothing of an OpenAI-format stream before the reply ends: no call there is final before then', async () => {
    const log: Log = [];
    const { server, events, agent } = await rig({
      tools: [tool({ name: 'lamp__get', log, parallelSafe: true })],
      format: 'openai',
    });
    server.reply(
      {
        pieces: async function* () {
          // Call 0's arguments are whole JSON, and call 1 begins: still, either could grow until the reply ends.
          yield openAiCall(call(0, 'lamp__get'));
          yield openAiCall(call(1, 'lamp__get'));
          yield openAiChunk({}, 'tool_calls') + 'data: [DONE]\n\n';
        },
      },
      {
        pieces: async function* () {
          yield openAiChunk({ role: 'assistant', content: 'Done.' }) + openAiChunk({}, 'stop') + 'data: [DONE]\n\n';
        },
      },
    );
    expect((await agent.runTurn({ conversationId: 'c1', text: 'read both lamps' })).reason).toBe('done');
    const types = events.map((event) => event.type);
    expect(events.some((event) => event.type === 'tool/start' && event.early)).toBe(false);
    expect(types.indexOf('tool/start')).toBeGreaterThan(types.indexOf('message/assistant'));
    expect(types.indexOf('batch/open')).toBeGreaterThan(types.indexOf('message/assistant'));
    expect(log.filter((line) => line.startsWith('enter')).sort()).toEqual(['enter 0', 'enter 1']);
    expect(lifecycleProblems(events)).toEqual([]);
  });

  it('asks the approval gate before each early call, while the reply streams; a call it refuses never runs', async () => {
    const log: Log = [];
    const approve: ApprovalGate = (request) => {
      log.push(`ask ${String(request.args.n)}`);
      return request.args.n !== 1;
    };
    const { server, events, until, agent } = await rig({
      tools: [tool({ name: 'lamp__set', log })],
      approve,
    });
    server.reply(
      {
        pieces: async function* () {
          yield anthropicStart() + anthropicToolOpen(call(0, 'lamp__set')) + anthropicBlockStop(0);
          await until((event) => event.type === 'tool/end' && event.index === 0);
          yield anthropicToolOpen(call(1, 'lamp__set')) + anthropicBlockStop(1);
          // The reply ends only once both early calls have ended: each was asked about while it streamed.
          await until((event) => event.type === 'tool/end' && event.index === 1);
          yield anthropicEnd();
        },
      },
      done,
    );
    expect((await agent.runTurn({ conversationId: 'c1', text: 'both lamps on' })).reason).toBe('done');
    expect(log).toEqual(['ask 0', 'enter 0', 'exit 0', 'ask 1']);
    expect(toolStartOf(events, 0)).toMatchObject({ early: true });
    expect(toolStartOf(events, 1)).toMatchObject({ early: true });
    const ends = events.filter((event) => event.type === 'tool/end');
    expect(ends.map((event) => [event.index, event.ok, event.error?.reason])).toEqual([
      [0, true, undefined],
      [1, false, 'denied'],
    ]);
    const types = events.map((event) => event.type);
    expect(types.lastIndexOf('tool/end')).toBeLessThan(types.indexOf('message/assistant'));
    expect(lifecycleProblems(events)).toEqual([]);
  });
});
