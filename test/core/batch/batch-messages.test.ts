import { describe, expect, it } from 'vitest';
import { Agent } from '../../../core/agent/agent.ts';
import { InMemoryConversationStore } from '../../../core/agent/conversation-store.ts';
import { AgentEvents } from '../../../core/events/agent-events.ts';
import { PluginRegistry } from '../../../core/plugins/plugin-registry.ts';
import { ScriptedModel, type Script } from '../../../core/models/scripted/scripted-model.ts';
import type { ToolDefinition } from '../../../core/tools/tool-definition.ts';
import type { AfterToolHook, ApprovalGate } from '../../../core/batch/run-tool-call.ts';
import type { AssistantMessage, ToolResultMessage } from '../../../core/models/conversation-message.ts';
import { gate, tool } from './batch-helpers.ts';

function setup(options: {
  script: Script;
  tools: ToolDefinition[];
  approve?: ApprovalGate;
  afterTool?: AfterToolHook[];
}) {
  const store = new InMemoryConversationStore();
  const plugins = new PluginRegistry();
  plugins.register({ name: 'test', description: 'test', tools: () => options.tools });
  const model = new ScriptedModel(options.script);
  const agent = new Agent({
    model: () => model,
    plugins,
    store,
    events: new AgentEvents({ journal: store }),
    settings: () => ({}),
    ...(options.approve ? { approve: options.approve } : {}),
    ...(options.afterTool ? { afterTool: options.afterTool } : {}),
  });
  return { agent, store, model };
}

const TEXT = 'Switching the hall lamp on and reading the thermometer now.';

describe('a batch in the conversation', () => {
  it('is one assistant message with the text once and all calls, then one tool message per call id in index order', async () => {
    const tools = [
      tool('lamp__set', {
        parallelSafe: true,
        parameters: { type: 'object', properties: { on: { type: 'boolean' } }, required: ['on'] },
      }),
      tool('thermo__read', { parallelSafe: true, handler: () => ({ celsius: 21 }) }),
      tool('relay__set', { parallelSafe: true }),
    ];
    const { agent, store } = setup({
      script: {
        replies: [
          {
            text: TEXT,
            toolCalls: [
              { name: 'lamp__set', args: { on: 'true' } },
              { name: 'thermo__read' },
              { name: 'relay__set' },
              { name: 'no_such_tool' },
              { name: 'lamp__set', argumentsText: '{"on":' },
            ],
          },
          { text: 'Done.' },
        ],
      },
      tools,
      approve: ({ tool: asked }) => asked.name !== 'relay__set',
    });
    expect((await agent.runTurn({ conversationId: 'c1', text: 'evening' })).reason).toBe('done');
    const messages = store.loadMessages('c1');
    expect(messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'tool',
      'tool',
      'tool',
      'assistant',
    ]);
    const assistant = messages[1] as AssistantMessage;
    expect(assistant.text).toBe(TEXT);
    expect(JSON.stringify(messages).split(TEXT).length - 1).toBe(1);
    expect(assistant.toolCalls.map((item) => item.name)).toEqual([
      'lamp__set',
      'thermo__read',
      'relay__set',
      'no_such_tool',
      'lamp__set',
    ]);
    expect(assistant.toolCalls[4]).toMatchObject({ args: {}, argumentsText: '{"on":' });

    const results = messages.slice(2, 7) as ToolResultMessage[];
    expect(results.map((message) => message.toolCallId)).toEqual(assistant.toolCalls.map((item) => item.id));
    expect(new Set(results.map((message) => message.toolCallId)).size).toBe(5);
    expect(results.map((message) => message.isError)).toEqual([false, false, true, true, true]);
    expect(
      results.map((message) => (JSON.parse(message.content) as { error?: { reason: string } }).error?.reason ?? 'ok'),
    ).toEqual(['ok', 'ok', 'denied', 'not_found', 'invalid_json']);
    expect(results[1]?.content).toBe('{"celsius":21}');
    expect(results[4]?.content).toContain('lamp__set');
  });

  it('puts each call’s media right after its own tool message, also when two calls attach media concurrently', async () => {
    const bothAttached = gate();
    const releaseB = gate();
    let attached = 0;
    const camera = (tag: string) =>
      tool(`camera_${tag}`, {
        parallelSafe: true,
        handler: async (_args, context) => {
          context.attachMedia({ mimeType: 'image/png', data: `${tag}1` });
          if (++attached === 2) bothAttached.open();
          await bothAttached.promise;
          // A waits for B to finish first, so attachments and completions interleave.
          if (tag === 'A') await releaseB.promise;
          context.attachMedia({ mimeType: 'image/png', data: `${tag}2` });
          if (tag === 'B') releaseB.open();
          return { shot: tag };
        },
      });
    const { agent, store } = setup({
      script: { replies: [{ toolCalls: [{ name: 'camera_A' }, { name: 'camera_B' }] }, { text: 'two pictures' }] },
      tools: [camera('A'), camera('B')],
    });
    await agent.runTurn({ conversationId: 'c1', text: 'look' });
    const messages = store.loadMessages('c1');
    const assistant = messages[1] as AssistantMessage;
    const [first, second] = messages.slice(2, 4) as ToolResultMessage[];
    expect(first).toMatchObject({
      toolCallId: assistant.toolCalls[0]?.id,
      toolName: 'camera_A',
      content: '{"shot":"A"}',
    });
    expect(first?.media?.map((item) => item.data)).toEqual(['A1', 'A2']);
    expect(second).toMatchObject({
      toolCallId: assistant.toolCalls[1]?.id,
      toolName: 'camera_B',
      content: '{"shot":"B"}',
    });
    expect(second?.media?.map((item) => item.data)).toEqual(['B1', 'B2']);
  });

  it('renders what an after-tool hook rewrote, from the structured value', async () => {
    const { agent, store } = setup({
      script: { replies: [{ toolCalls: [{ name: 'thermo__read' }] }, { text: 'ok' }] },
      tools: [tool('thermo__read', { handler: () => ({ celsius: 20 }) })],
      afterTool: [
        (info) =>
          info.outcome.ok
            ? { ok: true, value: { ...(info.outcome.value as { celsius: number }), fahrenheit: 68 } }
            : undefined,
      ],
    });
    await agent.runTurn({ conversationId: 'c1', text: 'temperature?' });
    expect(store.loadMessages('c1')[2]).toMatchObject({
      role: 'tool',
      content: '{"celsius":20,"fahrenheit":68}',
      isError: false,
    });
  });
});
