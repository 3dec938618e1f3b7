import { describe, expect, it } from 'vitest';
import { conversationOfUrl, urlWithConversation } from '../../../renderer/state/conversation-url.ts';

describe('the conversation in the page address', () => {
  it('reads the conversation an address names, and ignores what cannot be an id', () => {
    expect(conversationOfUrl('http://127.0.0.1:8123/?conversation=3f2a-b1')).toBe('3f2a-b1');
    expect(conversationOfUrl('http://127.0.0.1:8123/')).toBeUndefined();
    expect(conversationOfUrl('http://127.0.0.1:8123/?conversation=%3Cscript%3E')).toBeUndefined();
    expect(conversationOfUrl(`http://127.0.0.1:8123/?conversation=${'x'.repeat(201)}`)).toBeUndefined();
  });

  it('writes it and takes it out again, keeping the rest of the address', () => {
    const withIt = urlWithConversation('http://127.0.0.1:8123/?lang=en#top', 'c1');
    expect(withIt).toBe('http://127.0.0.1:8123/?lang=en&conversation=c1#top');
    expect(urlWithConversation(withIt, null)).toBe('http://127.0.0.1:8123/?lang=en#top');
  });
});
