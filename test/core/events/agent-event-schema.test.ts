import { describe, expect, it } from 'vitest';
import { AGENT_EVENT_TYPES, agentEventSchema, type AgentEvent } from '../../../core/events/agent-event.ts';
import { AgentEvents } from '../../../core/events/agent-events.ts';
import { agentEventSchema as contractSchema } from '../../../host/contract/api-contract.ts';
import { Agent } from '../../../core/agent/agent.ts';
import { InMemoryConversationStore } from '../../../core/agent/conversation-store.ts';
import { PluginRegistry } from '../../../core/plugins/plugin-registry.ts';
import { createChannelsPlugin, defaultOutputChannels } from '../../../core/plugins/builtin/channels-plugin.ts';
import { ScriptedModel } from '../../../core/models/scripted/scripted-model.ts';
import type { ModelAdapter } from '../../../core/models/model-adapter.ts';
import { numCtxSetting } from '../../../core/models/ollama/ollama-settings.ts';

/** Runs turns that emit every kernel event and returns what the listeners heard. */
async function eventsOfRealTurns(): Promise<AgentEvent[]> {
  const store = new InMemoryConversationStore();
  const agentEvents = new AgentEvents({ journal: store });
  const heard: AgentEvent[] = [];
  agentEvents.subscribe((event) => heard.push(event));
  const plugins = new PluginRegistry();
  plugins.register(createChannelsPlugin(defaultOutputChannels));
  const model = new ScriptedModel({
    replies: [
      {
        text: 'Telling you twice.',
        toolCalls: [
          { name: 'output_send__chat', args: { text: 'one' } },
          { name: 'output_send__notifications', args: { text: 'two' } },
          { name: 'no_such_tool', args: {} },
        ],
      },
      { text: 'Done.' },
    ],
  });
  const agent = new Agent({ model: () => model, plugins, store, events: agentEvents, settings: () => ({}) });
  await agent.runTurn({ conversationId: 'c1', text: 'say it' });
  // A turn that fails at assembly adds agent/error.
  const failing = new Agent({
    model: () => model,
    plugins,
    store,
    events: agentEvents,
    settings: () => ({ toolOrder: ['lamp__set', '<unlisted-tools>'] }),
  });
  await failing.runTurn({ conversationId: 'c2', text: 'again' });
  // A turn stopped while a device call is out adds device/state (the read-back after a Stop).
  let acted!: () => void;
  const sent = new Promise<void>((resolve) => (acted = resolve));
  const lamps = new PluginRegistry();
  const deviceId = { type: 'object', properties: { device_id: { type: 'string' } } } as const;
  lamps.register({
    name: 'lamps',
    description: 'lamps',
    tools: () => [
      {
        name: 'lamp__set',
        description: 'switch',
        parameters: deviceId,
        handler: async (_args, context) => {
          // A tool that says how far it got adds tool/progress (live only).
          context.reportProgress?.({ progress: 1, total: 2, message: 'switching' });
          acted();
          await new Promise((resolve) => context.signal.addEventListener('abort', resolve));
        },
      },
      { name: 'lamp__get', description: 'read', parameters: deviceId, handler: () => ({ on: true }) },
    ],
  });
  const stopped = new Agent({
    model: () =>
      new ScriptedModel({ replies: [{ toolCalls: [{ name: 'lamp__set', args: { device_id: 'lamp-1' } }] }] }),
    plugins: lamps,
    store,
    events: agentEvents,
    settings: () => ({}),
  });
  const running = stopped.runTurn({ conversationId: 'c3', text: 'lamp on' });
  await sent;
  stopped.abort('c3');
  await running;
  // A server that kept only its context length of the request (Ollama's silent cut) adds context/warning.
  const cutting: ModelAdapter = {
    label: 'ollama:cutting',
    context: {
      provider: 'ollama',
      baseUrl: 'http://127.0.0.1:1',
      model: 'cutting',
      contextLengthSetting: numCtxSetting,
    },
    async *stream(request) {
      yield { type: 'text-delta', text: 'Hm.' };
      yield { type: 'finish', reason: 'stop', usage: { inputTokens: request.contextLength ?? 0 } };
    },
  };
  await new Agent({ model: () => cutting, plugins, store, events: agentEvents, settings: () => ({}) }).runTurn({
    conversationId: 'c4',
    text: 'hello',
  });
  return heard;
}

describe('the agent event vocabulary', () => {
  it('is one schema, shared by the contract every transport uses', () => {
    expect(contractSchema).toBe(agentEventSchema);
  });

  it('parses every event a real turn emits without dropping or changing a field', async () => {
    const heard = await eventsOfRealTurns();
    for (const event of heard) expect(agentEventSchema.parse(event)).toEqual(event);
    const kernelTypes = new Set(heard.map((event) => event.type));
    // Approval events come from the host's gate (pinned in test/host/approvals); the rest are the kernel's own.
    expect(AGENT_EVENT_TYPES.filter((type) => !kernelTypes.has(type))).toEqual(['approval/request', 'approval/end']);
  });

  it('refuses an event with a misnamed field instead of passing it on', () => {
    const parsed = agentEventSchema.safeParse({
      type: 'tool/end',
      at: 1,
      conversationId: 'c',
      turnId: 't',
      batchId: 'b',
      callId: 'x',
      name: 'lamp__set',
      index: 0,
      okay: true,
      queuedMs: 0,
      runMs: 1,
      startedAt: 1,
      endedAt: 2,
    });
    expect(parsed.success).toBe(false);
  });
});
