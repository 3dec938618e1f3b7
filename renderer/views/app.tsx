import { AppHeader } from './app-header.tsx';
import { ChatView } from './chat-view.tsx';
import { ConversationList } from './conversation-list.tsx';
import { SidePanel } from './side-panel.tsx';
import { useAppStore } from './use-app-store.ts';

/** The whole window: header, conversations, the chat, and the side area (channels, devices, plugins, settings). */
export function App() {
  const notice = useAppStore((state) => state.notice);
  const connectionMessage = useAppStore((state) =>
    state.connection.status === 'open' ? undefined : state.connection.message,
  );
  const showNotice = useAppStore((state) => state.showNotice);
  const message = notice ?? connectionMessage;
  return (
    <div className="app">
      <AppHeader />
      {message && (
        <div className="notice" role="status" data-testid="notice">
          <span>{message}</span>
          {notice && (
            <button type="button" className="notice-close" aria-label="Dismiss" onClick={() => showNotice(null)}>
              ×
            </button>
          )}
        </div>
      )}
      <div className="app-body">
        <ConversationList />
        <ChatView />
        <SidePanel />
      </div>
    </div>
  );
}
