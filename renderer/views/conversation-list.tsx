import { useAppStore } from './use-app-store.ts';

/** The sidebar: a New conversation button and every conversation, newest first. */
export function ConversationList() {
  const conversations = useAppStore((state) => state.conversations);
  const openId = useAppStore((state) => state.openConversationId);
  const openConversation = useAppStore((state) => state.openConversation);
  const startNewConversation = useAppStore((state) => state.startNewConversation);
  return (
    <nav className="conversation-list" aria-label="Conversations">
      <button
        type="button"
        className="button button-primary new-conversation"
        data-testid="new-conversation-button"
        onClick={startNewConversation}
      >
        New conversation
      </button>
      <ul>
        {conversations.map((conversation) => (
          <li key={conversation.id}>
            <button
              type="button"
              className={conversation.id === openId ? 'conversation-item conversation-item-open' : 'conversation-item'}
              data-testid="conversation-item"
              aria-current={conversation.id === openId ? 'page' : undefined}
              onClick={() => openConversation(conversation.id)}
            >
              <span className="conversation-title">{conversation.title || 'Untitled'}</span>
              <time className="conversation-time" dateTime={new Date(conversation.updatedAt).toISOString()}>
                {new Date(conversation.updatedAt).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' })}
              </time>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
