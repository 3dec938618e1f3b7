import { useEffect } from 'react';
import { AppHeader } from './app-header.tsx';
import { ChatView } from './chat-view.tsx';
import { ConversationList } from './conversation-list.tsx';
import { LiveRegions } from './live-regions.tsx';
import { ElicitationQuestions } from './elicitation-form.tsx';
import { SidePanel } from './side-panel.tsx';
import { FontWarmup } from './font-warmup.tsx';
import { useAppStore } from './use-app-store.ts';
import { useShallow } from 'zustand/react/shallow';
import { shownNotice } from '../state/app-slice.ts';

/**
 * The whole window: header, conversations, the chat, and the side area (channels, devices,
 * plugins, settings). Wide, all three stand side by side; narrow, the conversations and the side
 * area are drawers over the chat, opened from the header and closed by Escape or the backdrop.
 */
export function App() {
  const notice = useAppStore(useShallow(shownNotice));
  const showNotice = useAppStore((state) => state.showNotice);
  const drawer = useAppStore((state) => state.drawer);
  const setDrawer = useAppStore((state) => state.setDrawer);

  useEffect(() => {
    if (!drawer) return undefined;
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape') setDrawer(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [drawer, setDrawer]);

  return (
    <div className={drawer ? `app app-drawer-${drawer}` : 'app'}>
      <a className="skip-link" href="#composer-input">
        Skip to the message box
      </a>
      <AppHeader />
      <FontWarmup />
      {notice && (
        <div className="notice" role="alert" data-testid="notice">
          <span className="notice-text">{notice.text}</span>
          {notice.dismissable && (
            <button
              type="button"
              className="notice-close"
              aria-label="Dismiss this message"
              onClick={() => showNotice(null)}
            >
              ×
            </button>
          )}
        </div>
      )}
      <ElicitationQuestions />
      <div className="app-body">
        <ConversationList />
        <ChatView />
        <SidePanel />
        {drawer && <div className="drawer-backdrop" data-testid="drawer-backdrop" onClick={() => setDrawer(null)} />}
      </div>
      <LiveRegions />
    </div>
  );
}
