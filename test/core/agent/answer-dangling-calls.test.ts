import { describe, expect, it } from 'vitest';
import { answerDanglingCalls, danglingCalls } from '../../../core/agent/answer-dangling-calls.ts';
import type { ConversationMessage } from '../../../core/models/conversation-message.ts';
import { Agent } from '../../../core/agent/agent.ts';
import { InMemoryConversationStore } from '../../../core/agent/conversation-store.ts';
import { AgentEvents } from '../../../core/events/agent-events.ts';
import { PluginRegistry } from '../../../core/plugins/plugin-registry.ts';
import { ScriptedModel } from '../../../core/models/scripted/scripted-model.ts';

const call = (id: string) => ({ id, name: 'lamp__set', args: {} });
const result = (id: string): ConversationMessage => ({
  role: 'tool',
  toolCallId: id,
  toolName: 'lamp__set',
  content: '{"on":true}',
  isError: false,
});

describe('answerDanglingCalls', () => {
  it('answers a call without a result right after its own message, before the next user message', () => {
    const history: ConversationMessage[] = [
      { role: 'user', text: 'a' },
      { role: 'assistant', text: '', toolCalls: [call('x'), call('y')] },
      result('x'),
      { role: 'user', text: 'b' },
      { role: 'assistant', text: 'ok', toolCalls: [] },
    ];
    const repaired = answerDanglingCalls(history, () => ({ content: 'lost', isError: true }));
    expect(repaired.map((message) => (message.role === 'tool' ? `tool:${message.toolCallId}` : message.role))).toEqual([
      'user',
      'assistant',
      'tool:x',
      'tool:y',
      'user',
      'assistant',
    ]);
    expect(repaired[3]).toMatchObject({ content: 'lost', isError: true });
    expect(danglingCalls(history).map((entry) => entry.id)).toEqual(['y']);
  });

  it('leaves a history where every call is answered exactly as it is', () => {
    const history: ConversationMessage[] = [
      { role: 'assistant', text: '', toolCalls: [call('x')] },
      result('x'),
      { role: 'assistant', text: 'done', toolCalls: [] },
    ];
    expect(answerDanglingCalls(history)).toEqual(history);
    expect(danglingCalls(history)).toEqual([]);
  });

  it('says by default that a call with no recorded result may have acted', () => {
    const [, answer] = answerDanglingCalls([{ role: 'assistant', text: '', toolCalls: [call('x')] }]);
    expect(answer?.role === 'tool' ? JSON.parse(answer.content) : undefined).toMatchObject({ outcome: 'unknown' });
  });
});

describe('a request built from a history with a gap', () => {
  it('answers the gap before the model sees it, so every provider accepts the request', async () => {
    const store = new InMemoryConversationStore();
    store.ensureConversation('c1', 'old');
    // As an older version left it after a crash: a call with no result, then a later turn.
    store.appendMessage('c1', { role: 'user', text: 'lamp on' });
    store.appendMessage('c1', { role: 'assistant', text: '', toolCalls: [call('lost')] });
    store.appendMessage('c1', { role: 'user', text: 'and now?' });
    store.appendMessage('c1', { role: 'assistant', text: 'I do not know.', toolCalls: [] });
    const model = new ScriptedModel({ replies: [{ text: 'Let me check.' }] });
    const agent = new Agent({
      model: () => model,
      plugins: new PluginRegistry(),
      store,
      events: new AgentEvents({ journal: store }),
      settings: () => ({}),
    });
    await agent.runTurn({ conversationId: 'c1', text: 'is the lamp on?' });
    const sent = model.requests.at(-1)?.messages ?? [];
    expect(sent.map((message) => (message.role === 'tool' ? `tool:${message.toolCallId}` : message.role))).toEqual([
      'user',
      'assistant',
      'tool:lost',
      'user',
      'assistant',
      'user',
    ]);
  });
});
