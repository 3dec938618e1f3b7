import type { AppStore } from './create-app-store.ts';

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

  let following = false;
  const onPopState = (): void => {
    following = true;
    store.getState().openConversation(conversationOfUrl(page.location.href) ?? null);
    following = false;
  };
  page.addEventListener('popstate', onPopState);
  const unsubscribe = store.subscribe((state, previous) => {
    if (state.openConversationId === previous.openConversationId || following) return;
    // A conversation begun by the first message replaces "no conversation" rather than adding a step.
    write(state.openConversationId, previous.openConversationId === null ? 'replace' : 'push');
  });
  return () => {
    page.removeEventListener('popstate', onPopState);
    unsubscribe();
  };
}
