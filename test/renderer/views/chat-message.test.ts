// @vitest-environment happy-dom
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChatMessage } from '../../../renderer/views/chat-message.tsx';

(globalThis as Record<string, unknown>).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root;
let container: HTMLElement;
beforeEach(() => {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

const speaker = (): string | null | undefined => container.querySelector('.chat-speaker')?.textContent;

describe('ChatMessage', () => {
  it('names the MCP client that asked for a turn, and the person otherwise', () => {
    act(() => root.render(createElement(ChatMessage, { role: 'user', text: 'Cursor called lamp__set', by: 'Cursor' })));
    expect(speaker()).toBe('Cursor');
    act(() => root.render(createElement(ChatMessage, { role: 'user', text: 'turn on the lamps' })));
    expect(speaker()).toBe('You');
  });
});
