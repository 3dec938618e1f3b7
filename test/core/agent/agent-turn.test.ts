import { describe, expect, it } from 'vitest';
import { Agent } from '../../../core/agent/agent.ts';
import { InMemoryConversationStore } from '../../../core/agent/conversation-store.ts';
import { AgentEvents } from '../../../core/events/agent-events.ts';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import { PluginRegistry } from '../../../core/plugins/plugin-registry.ts';
import { ScriptedModel, type Script } from '../../../core/models/scripted/scripted-model.ts';
import type { ToolDefinition } from '../../../core/tools/tool-definition.ts';

function setup(options: { script: Script; tools: ToolDefinition[] }) {
  const store = new InMemoryConversationStore();
  const agentEvents = new AgentEvents({ journal: store });
  const events: AgentEvent[] = [];
  agentEvents.subscribe((event) => events.push(event));
  const plugins = new PluginRegistry();
  plugins.register({ name: 'test', description: 'test tools', tools: () => options.tools });
  const model = new ScriptedModel(options.script);
  const agent = new Agent({ model: () => model, plugins, store, events: agentEvents, settings: () => ({}) });
  return { agent, store, events, model };
}

/** A tool whose handler resolves only when the test releases it, so overlap is observable without timing. */
function gatedTool(
  name: string,
  log: string[],
  gate: Promise<void>,
  declarations: Partial<ToolDefinition> = {},
): ToolDefinition {
  return {
    name,
    description: name,
    parameters: { type: 'object', properties: { n: { type: 'number' } } },
    ...declarations,
    handler: async (args) => {
      log.push(`start ${name}`);
      await gate;
      log.push(`end ${name}`);
      return { tool: name, n: args.n };
    },
  };
}

describe('Agent turn', () => {
  it('runs a reply of three parallel-safe calls as one parallel batch and ends done', async () => {
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const tools = ['a', 'b', 'c'].map((name) => gatedTool(name, log, gate, { parallelSafe: true }));
    const { agent, events, store } = setup({
      script: {
        replies: [
          { text: 'go', toolCalls: [{ name: 'a', args: { n: 1 } }, { name: 'b', args: { n: '2' } }, { name: 'c' }] },
          { text: 'done' },
        ],
      },
      tools,
    });
    const done = agent.runTurn({ conversationId: 'c1', text: 'hi' });
    // All three handlers start before any is released: they overlap.
    await expect.poll(() => log.length).toBe(3);
    expect(log).toEqual(['start a', 'start b', 'start c']);
    release();
    const outcome = await done;
    expect(outcome.reason).toBe('done');
    const batchStart = events.find((event) => event.type === 'batch/start');
    expect(batchStart).toMatchObject({
      mode: 'parallel',
      calls: [
        { index: 0, name: 'a' },
        { index: 1, name: 'b' },
        { index: 2, name: 'c' },
      ],
    });
    const messages = store.loadMessages('c1');
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'tool', 'assistant']);
    // "2" was coerced to a number by validation before dispatch.
    expect(messages[3]).toMatchObject({ role: 'tool', content: '{"tool":"b","n":2}' });
  });

  it('answers an unknown tool with a typed not_found and still ends the turn done', async () => {
    const { agent, events } = setup({
      script: { replies: [{ toolCalls: [{ name: 'no_such_tool', args: {} }] }, { text: 'sorry' }] },
      tools: [],
    });
    const outcome = await agent.runTurn({ conversationId: 'c1', text: 'hi' });
    expect(outcome.reason).toBe('done');
    const end = events.find((event) => event.type === 'tool/end');
    expect(end).toMatchObject({ ok: false, error: { reason: 'not_found' } });
  });
});
