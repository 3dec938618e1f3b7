import { describe, expect, it } from 'vitest';
import { InMemoryConversationStore } from '../../../core/agent/conversation-store.ts';
import { answerDanglingCalls } from '../../../core/agent/answer-dangling-calls.ts';
import { RequestHistory } from '../../../core/agent/request-history.ts';
import type { ConversationMessage } from '../../../core/models/conversation-message.ts';

const user = (text: string): ConversationMessage => ({ role: 'user', text });
const calls = (...ids: string[]): ConversationMessage => ({
  role: 'assistant',
  text: '',
  toolCalls: ids.map((id) => ({ id, name: 'lamp__set', args: {} })),
});
const result = (id: string): ConversationMessage => ({
  role: 'tool',
  toolCallId: id,
  toolName: 'lamp__set',
  content: '{}',
  isError: false,
});

describe('RequestHistory', () => {
  it('gives, read after read, what answerDanglingCalls gives for the whole history, and the same hash as a fresh read', async () => {
    const store = new InMemoryConversationStore();
    store.ensureConversation('c1', 't');
    const kept = new RequestHistory('c1');
    const steps: ConversationMessage[][] = [
      [user('a'), calls('x', 'y')],
      [result('x')],
      [user('b')],
      [calls('z'), result('z'), { role: 'assistant', text: 'done', toolCalls: [] }],
    ];
    for (const added of steps) {
      for (const message of added) store.appendMessage('c1', message);
      const incremental = await kept.read(store);
      const fresh = await new RequestHistory('c1').read(store);
      expect(incremental.messages).toEqual(answerDanglingCalls(store.loadMessages('c1')));
      expect(incremental).toEqual(fresh);
    }
  });

  it('sees messages another writer stored meanwhile, and starts over when the conversation shrank', async () => {
    const store = new InMemoryConversationStore();
    store.ensureConversation('c1', 't');
    const kept = new RequestHistory('c1');
    store.appendMessage('c1', user('a'));
    expect((await kept.read(store)).messageSeq).toBe(1);
    store.appendMessage('c1', user('from another process'));
    expect((await kept.read(store)).messages).toEqual([user('a'), user('from another process')]);
    store.messages.set('c1', [user('new start')]);
    const after = await kept.read(store);
    expect(after).toEqual(await new RequestHistory('c1').read(store));
    expect(after.messages).toEqual([user('new start')]);
  });
});
