import type { AppStore } from './create-app-store.ts';
import { whenIdle } from './when-idle.ts';

const PARAMETER = 'conversation';
const ID = /^[\w.:-]{1,200}$/;

/** Pure: the conversation a page address opens (`?conversation=ID`), if it names a plausible id. */
export function conversationOfUrl(href: string): string | undefined {
  const id = new URL(href).searchParams.get(PARAMETER);
  return id !== null && ID.test(id) ? id : undefined;
}

/** Pure: the address with the open conversation in it (or none), everything else kept. */
export function urlWithConversation(href: string, conversationId: string | null): string {
  const url = new URL(href);
  if (conversationId === null) url.searchParams.delete(PARAMETER);
  else url.searchParams.set(PARAMETER, conversationId);
  return url.toString();
}

/**
 * Keeps the open conversation in the page's address, so a reload or a shared link opens it again,
 * and Back and Forward move between conversations opened here. Returns the function that stops it.
 */
export function startConversationUrl(options: { store: AppStore; window: Window }): () => void {
  const { store, window: page } = options;
  const fromAddress = conversationOfUrl(page.location.href);
  if (fromAddress !== undefined) store.getState().openConversation(fromAddress);
  else if (store.getState().openConversationId !== null) write(store.getState().openConversationId, 'replace');

  function write(conversationId: string | null, how: 'push' | 'replace'): void {
    const next = urlWithConversation(page.location.href, conversationId);
    if (next === page.location.href) return;
    try {
      if (how === 'push') page.history.pushState(null, '', next);
      else page.history.replaceState(null, '', next);
    } catch (error) {
      // Some origins (a file: page in Electron) refuse a changed address; the app works without it.
      console.warn('Could not keep the conversation in the address:', error);
    }
  }

  // A change is written when the page is next idle, not inside the task that made it: pushState and
  // replaceState cost the main thread 4–14 ms in traces of the Send click that begins a conversation,
  // and that click's frame has the person's message to draw. Changes made before then are written
  // then, in order.
  let pending: { conversationId: string | null; how: 'push' | 'replace' }[] = [];
  let cancel: (() => void) | undefined;
  function writeWhenIdle(conversationId: string | null, how: 'push' | 'replace'): void {
    pending.push({ conversationId, how });
    cancel ??= whenIdle(page, () => {
      cancel = undefined;
      const writes = pending;
      pending = [];
      for (const next of writes) write(next.conversationId, next.how);
    });
  }
  function dropPending(): void {
    cancel?.();
    cancel = undefined;
    pending = [];
  }

  let following = false;
  const onPopState = (): void => {
    // The address moved: a write still waiting would undo it.
    dropPending();
    following = true;
    store.getState().openConversation(conversationOfUrl(page.location.href) ?? null);
    following = false;
  };
  page.addEventListener('popstate', onPopState);
  const unsubscribe = store.subscribe((state, previous) => {
    if (state.openConversationId === previous.openConversationId || following) return;
    // A conversation begun by the first message replaces "no conversation" rather than adding a step.
    writeWhenIdle(state.openConversationId, previous.openConversationId === null ? 'replace' : 'push');
  });
  return () => {
    dropPending();
    page.removeEventListener('popstate', onPopState);
    unsubscribe();
  };
}
