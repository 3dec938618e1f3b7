import { describe, expect, it } from 'vitest';
import { InMemoryConversationStore } from '../../../core/agent/conversation-store.ts';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import type { ConversationMessage } from '../../../core/models/conversation-message.ts';
import { ScriptedModel } from '../../../core/models/scripted/scripted-model.ts';
import { agentRig, lampSetPlugin } from '../../helpers/agent-rig.ts';

/** A store that writes down, in order, every event journaled and every message stored. */
class OrderedStore extends InMemoryConversationStore {
  readonly writes: string[] = [];

  override appendEvent(event: AgentEvent): void {
    super.appendEvent(event);
    if (event.type === 'turn/start') this.writes.push(`event user ${event.text}`);
    if (event.type === 'message/assistant')
      this.writes.push(`event assistant ${event.toolCalls.map((call) => call.id).join(',')}`);
    if (event.type === 'tool/end') this.writes.push(`event tool ${event.callId}`);
  }

  override appendMessage(conversationId: string, message: ConversationMessage): void {
    super.appendMessage(conversationId, message);
    if (message.role === 'user') this.writes.push(`message user ${message.text}`);
    if (message.role === 'assistant')
      this.writes.push(`message assistant ${message.toolCalls.map((call) => call.id).join(',')}`);
    if (message.role === 'tool') this.writes.push(`message tool ${message.toolCallId}`);
  }
}

describe('the journal comes first', () => {
  it('journals the event that records each message before the message is stored', async () => {
    const store = new OrderedStore();
    const { agent } = agentRig({
      model: new ScriptedModel({
        replies: [
          {
            toolCalls: [
              { name: 'lamp__set', args: {} },
              { name: 'lamp__set', args: {} },
            ],
          },
          { text: 'Both on.' },
        ],
      }),
      plugins: [lampSetPlugin([])],
      store,
    });
    expect(await agent.runTurn({ conversationId: 'c1', text: 'lamps' })).toMatchObject({ reason: 'done' });
    const messages = store.writes.filter((write) => write.startsWith('message '));
    expect(messages).toHaveLength(5);
    // A process killed between the two writes leaves an event without its message, never a message the journal lacks.
    for (const message of messages) {
      const recorded = store.writes.indexOf(message.replace(/^message/, 'event'));
      expect(recorded, message).toBeGreaterThanOrEqual(0);
      expect(recorded, message).toBeLessThan(store.writes.indexOf(message));
    }
  });
});
