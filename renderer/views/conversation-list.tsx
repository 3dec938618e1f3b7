import { useEffect, useState } from 'react';
import type { ConversationSummary } from '../../host/contract/api-contract.ts';
import { ConversationItem } from './conversation-item.tsx';
import { Drawer, DrawerClose } from './drawer.tsx';
import { useAppStore } from './use-app-store.ts';

const SEARCH_DELAY_MS = 200;
const noResults: ConversationSummary[] = [];

/**
 * The conversations: New conversation, a search over titles and messages, and every conversation
 * newest first, each openable, renamable and deletable. A landmark named "Conversations"; a drawer
 * on narrow screens.
 */
export function ConversationList() {
  const conversations = useAppStore((state) => state.conversations);
  const search = useAppStore((state) => state.conversationSearch);
  const startNewConversation = useAppStore((state) => state.startNewConversation);
  const searchConversations = useAppStore((state) => state.searchConversations);
  const [query, setQuery] = useState('');

  // The search runs once typing pauses; the timer belongs to this effect and ends with it.
  useEffect(() => {
    const timer = setTimeout(() => void searchConversations(query), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [query, searchConversations]);

  const shown = search ? search.results : conversations;
  return (
    <Drawer
      which="conversations"
      element="nav"
      className="conversation-list"
      label="Conversations"
      testId="conversation-list"
    >
      <div className="drawer-head">
        <h2 className="section-title">Conversations</h2>
        <DrawerClose label="Close the conversations" testId="close-conversations" />
      </div>
      <button
        type="button"
        className="button button-primary new-conversation"
        data-testid="new-conversation-button"
        onClick={() => {
          startNewConversation();
          document.getElementById('composer-input')?.focus();
        }}
      >
        New conversation
      </button>
      <div className="conversation-search">
        <label className="visually-hidden" htmlFor="conversation-search-input">
          Search conversations
        </label>
        <input
          id="conversation-search-input"
          type="search"
          className="conversation-search-input"
          data-testid="conversation-search"
          placeholder="Search conversations"
          autoComplete="off"
          value={query}
          onChange={(event) => setQuery(event.currentTarget.value)}
        />
      </div>
      <p className="conversation-search-status" role="status" data-testid="conversation-search-status">
        {search ? searchStatus(search.status, search.results.length, search.query, search.error) : ''}
      </p>
      {!search && conversations.length === 0 && (
        <p className="side-empty">No conversations yet: your first message starts one.</p>
      )}
      <ul className="conversation-items">
        {(shown ?? noResults).map((conversation) => (
          <ConversationItem key={conversation.id} conversation={conversation} />
        ))}
      </ul>
    </Drawer>
  );
}

function searchStatus(status: 'searching' | 'done' | 'failed', count: number, query: string, error?: string): string {
  if (status === 'failed') return error ?? 'The search failed.';
  if (status === 'searching') return 'Searching…';
  if (count === 0) return `No conversation mentions “${query}”.`;
  return `${count} ${count === 1 ? 'conversation mentions' : 'conversations mention'} “${query}”.`;
}
