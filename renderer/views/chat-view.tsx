import { useEffect, useRef } from 'react';
import { contextLine } from '../../host/contract/context-line.ts';
import { Composer } from './composer.tsx';
import { TurnView } from './turn-view.tsx';
import { useAppStore } from './use-app-store.ts';

const noTurns: string[] = [];

/** The open conversation's turns, kept scrolled to the newest, with the composer below: the page's main landmark. */
export function ChatView() {
  const openId = useAppStore((state) => state.openConversationId);
  const title = useAppStore(
    (state) => state.conversations.find((entry) => entry.id === state.openConversationId)?.title,
  );
  const turnIds = useAppStore(
    (state) => (state.openConversationId ? state.turnOrder[state.openConversationId] : undefined) ?? noTurns,
  );
  // How full the model's window was at the conversation's latest request that said so.
  const context = useAppStore((state) => {
    const ids = state.openConversationId ? state.turnOrder[state.openConversationId] : undefined;
    for (let index = (ids?.length ?? 0) - 1; index >= 0; index -= 1) {
      const found = state.turns[ids![index]!]?.context;
      if (found) return contextLine(found);
    }
    return undefined;
  });
  const journal = useAppStore((state) =>
    state.openConversationId ? state.journalStatus[state.openConversationId] : undefined,
  );
  // Any change to the open conversation's folded data moves the view to its end.
  const turns = useAppStore((state) => state.turns);
  const batches = useAppStore((state) => state.batches);
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);

  useEffect(() => {
    const element = scroller.current;
    if (element && pinned.current) element.scrollTop = element.scrollHeight;
  }, [turns, batches, turnIds]);

  return (
    <main className="chat" aria-labelledby="chat-title">
      <h2 className="chat-title" id="chat-title" data-testid="chat-title">
        {openId ? (title ?? 'Conversation') : 'New conversation'}
      </h2>
      {context && (
        <p className="chat-context" data-testid="context-line">
          {context}
        </p>
      )}
      <div
        className="chat-scroll"
        ref={scroller}
        // Scrollable by keyboard too: the region takes the focus when nothing inside it can.
        tabIndex={0}
        aria-label="Messages"
        role="region"
        onScroll={(event) => {
          const element = event.currentTarget;
          // Follow new output only while the person has not scrolled up to read.
          pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
        }}
      >
        {turnIds.length === 0 ? (
          <div className="chat-empty">
            {journal === 'loading'
              ? 'Loading…'
              : openId
                ? 'No messages yet. Ask the agent to do something in your home.'
                : 'Ask the agent to do something in your home — a new conversation starts with your first message.'}
          </div>
        ) : (
          turnIds.map((turnId) => <TurnView key={turnId} turnId={turnId} />)
        )}
      </div>
      <Composer />
    </main>
  );
}
