import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHash } from 'node:crypto';
import { Agent } from '../../../core/agent/agent.ts';
import { InMemoryConversationStore } from '../../../core/agent/conversation-store.ts';
import { AgentEvents } from '../../../core/events/agent-events.ts';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import { PluginRegistry } from '../../../core/plugins/plugin-registry.ts';
import { createChannelsPlugin, defaultOutputChannels } from '../../../core/plugins/builtin/channels-plugin.ts';
import { ScriptedModel, type Script } from '../../../core/models/scripted/scripted-model.ts';
import type { ConversationMessage } from '../../../core/models/conversation-message.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** Counts the message rows a step reads from the store (whole or only what is new). */
class CountingStore extends InMemoryConversationStore {
  rowsRead = 0;
  override loadMessages(conversationId: string): ConversationMessage[] {
    const messages = super.loadMessages(conversationId);
    this.rowsRead += messages.length;
    return messages;
  }
  override loadMessagesAfter(conversationId: string, afterSeq: number) {
    const loaded = super.loadMessagesAfter(conversationId, afterSeq);
    this.rowsRead += loaded.messages.length;
    return loaded;
  }
}

function setup(script: Script) {
  const store = new CountingStore();
  const events = new AgentEvents({ journal: store });
  const journal: AgentEvent[] = [];
  events.subscribe((event) => journal.push(event));
  const plugins = new PluginRegistry();
  plugins.register(createChannelsPlugin(defaultOutputChannels));
  const model = new ScriptedModel(script);
  const agent = new Agent({ model: () => model, plugins, store, events, settings: () => ({}) });
  return { agent, store, model, journal };
}

describe('request/header hashes', () => {
  it('record requestHash = sha256(systemPromptHash \\n toolsHash \\n messagesHash), the messages as a hash chain', async () => {
    const { agent, model, journal } = setup({ replies: [{ text: 'ok' }] });
    await agent.runTurn({ conversationId: 'c1', text: 'hi' });
    const header = journal.find((event) => event.type === 'request/header');
    const sent = model.requests[0]!;
    // Computed here by hand from the documented definition, with node's own SHA-256.
    const systemPromptHash = sha256(sent.system);
    const toolsHash = sha256(JSON.stringify(sent.tools));
    const messagesHash = sha256(`${'0'.repeat(64)}\n{"role":"user","text":"hi"}`);
    expect(header).toMatchObject({
      systemPromptHash,
      toolsHash,
      messagesHash,
      messageSeq: 1,
      requestHash: sha256(`${systemPromptHash}\n${toolsHash}\n${messagesHash}`),
    });
  });

  it('chain a message with its keys in code-unit order, whatever order they were written in', async () => {
    const { agent, model, journal } = setup({
      replies: [{ toolCalls: [{ id: 'k1', name: 'output_send__chat', args: { text: 'yo', a: 1 } }] }, { text: 'done' }],
    });
    await agent.runTurn({ conversationId: 'c1', text: 'hi' });
    const headers = journal.filter((event) => event.type === 'request/header');
    const [, second] = model.requests;
    expect(second?.messages).toHaveLength(3);
    let chain = '0'.repeat(64);
    for (const text of [
      '{"role":"user","text":"hi"}',
      '{"role":"assistant","text":"","toolCalls":[{"args":{"a":1,"text":"yo"},"id":"k1","name":"output_send__chat"}]}',
      `{"content":${JSON.stringify(second?.messages[2]?.role === 'tool' ? second.messages[2].content : '')},"isError":false,"role":"tool","toolCallId":"k1","toolName":"output_send__chat"}`,
    ])
      chain = sha256(`${chain}\n${text}`);
    expect(headers[1]).toMatchObject({ messagesHash: chain, messageSeq: 3 });
  });
});

describe('the cost of one step', () => {
  it('does not grow with the history: turn 300 reads and hashes what turn 30 did', async () => {
    const replies: Script['replies'] = [];
    for (let turn = 0; turn < 300; turn += 1)
      replies.push({ toolCalls: [{ id: 'k', name: 'output_send__chat', args: { text: 'x' } }] }, { text: 'sent' });
    const { agent, store } = setup({ replies });
    const hashed = { bytes: 0 };
    const digest = crypto.subtle.digest.bind(crypto.subtle);
    vi.spyOn(crypto.subtle, 'digest').mockImplementation((algorithm, data) => {
      hashed.bytes += (data as ArrayBufferView).byteLength;
      return digest(algorithm, data);
    });
    const costOf = async (turn: number) => {
      const before = { rows: store.rowsRead, bytes: hashed.bytes };
      const outcome = await agent.runTurn({ conversationId: 'c1', text: `turn ${String(turn).padStart(4, '0')}` });
      expect(outcome.reason).toBe('done');
      return { rows: store.rowsRead - before.rows, bytes: hashed.bytes - before.bytes };
    };
    const costs: { rows: number; bytes: number }[] = [];
    for (let turn = 1; turn <= 300; turn += 1) costs.push(await costOf(turn));
    const [at30, at300] = [costs[29]!, costs[299]!];
    // Each turn stores four messages (user, assistant with its call, the result, the answer).
    expect(at300.rows).toBe(at30.rows);
    expect(at300.rows).toBeLessThanOrEqual(4);
    expect(at300.bytes).toBe(at30.bytes);
  });
});
