import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { contextLine } from '../../host/contract/context-line.ts';
import { Composer } from './composer.tsx';
import { TurnView } from './turn-view.tsx';
import { useAppStore } from './use-app-store.ts';
import { visibleRange } from './visible-range.ts';

const noTurns: string[] = [];
/** A turn's height before it was ever drawn (px). */
const ESTIMATED_TURN_PX = 320;
/** How far beyond the visible part turns are still drawn (px), so a quick scroll meets drawn turns. */
const OVERSCAN_PX = 1200;
/** How far the view scrolls before the drawn band follows it (px); well within the overscan. */
const REDRAW_STEP_PX = 600;
/** How close to the top an older page of the journal is read (px). */
const LOAD_OLDER_PX = 2000;

/**
 * The open conversation's turns, kept scrolled to the newest, with the composer below: the page's
 * main landmark. Only the turns near the visible part are drawn (a long history is thousands of
 * turns); the others are space of their measured (or estimated) height. Scrolling near the top
 * reads the next older page of the journal.
 */
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
  const olderExists = useAppStore((state) =>
    state.openConversationId ? state.journalBefore[state.openConversationId] !== undefined : false,
  );
  const loadOlder = useAppStore((state) => state.loadOlderEvents);
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const heights = useRef(new Map<string, number>());
  const [view, setView] = useState({ top: 0, height: 800 });
  const [measured, setMeasured] = useState(0);

  const sizes = useMemo(
    () => turnIds.map((id) => heights.current.get(id) ?? ESTIMATED_TURN_PX),
    // `measured` changes when a drawn turn's height does.
    [turnIds, measured],
  );
  const total = sizes.reduce((sum, size) => sum + size, 0);
  // Pinned to the end, the band is the end (before the scroll event that follows new output).
  const top = pinned.current ? Math.max(0, total - view.height) : view.top;
  const range = visibleRange({ sizes, top: top - OVERSCAN_PX, bottom: top + view.height + OVERSCAN_PX });

  // One observer for every drawn turn: a height that changed moves what is below it, once per frame.
  const observer = useMemo(
    () =>
      typeof ResizeObserver === 'function'
        ? new ResizeObserver((entries) => {
            let changed = false;
            for (const entry of entries) {
              const id = (entry.target as HTMLElement).dataset.turnId;
              const height = Math.round(entry.contentRect.height);
              if (id && heights.current.get(id) !== height) {
                heights.current.set(id, height);
                changed = true;
              }
            }
            if (changed) setMeasured((count) => count + 1);
          })
        : undefined,
    [],
  );
  useEffect(() => () => observer?.disconnect(), [observer]);
  const observe = useCallback(
    (element: HTMLDivElement | null) => {
      if (element && observer) observer.observe(element);
    },
    [observer],
  );

  // Older turns put before the drawn ones: the view keeps showing what it showed.
  const firstId = turnIds[0];
  const previousFirst = useRef<{ id: string | undefined; count: number }>({ id: firstId, count: turnIds.length });
  useLayoutEffect(() => {
    const element = scroller.current;
    const before = previousFirst.current;
    previousFirst.current = { id: firstId, count: turnIds.length };
    if (!element || before.id === undefined || firstId === before.id || pinned.current) return;
    const added = turnIds.indexOf(before.id);
    if (added <= 0) return;
    element.scrollTop += sizes.slice(0, added).reduce((sum, size) => sum + size, 0);
  }, [firstId, turnIds, sizes]);

  // New output moves the view to the end while the person has not scrolled up to read.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && pinned.current) element.scrollTop = element.scrollHeight;
  });

  const onScroll = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    // Follow new output only while the person has not scrolled up to read.
    pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
    // The drawn band moves in steps: a scroll within the overscan needs no new drawing.
    setView((current) =>
      Math.abs(current.top - element.scrollTop) < REDRAW_STEP_PX && current.height === element.clientHeight
        ? current
        : { top: element.scrollTop, height: element.clientHeight },
    );
    if (openId && olderExists && element.scrollTop < LOAD_OLDER_PX) void loadOlder(openId);
  }, [openId, olderExists, loadOlder]);

  // The first drawing takes the real height of the region.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element) setView({ top: element.scrollTop, height: element.clientHeight });
  }, [openId]);

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
        onScroll={onScroll}
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
          <>
            {olderExists && range.start === 0 && <div className="chat-older">Loading older messages…</div>}
            <div aria-hidden="true" style={{ height: range.before }} />
            {turnIds.slice(range.start, range.end).map((turnId) => (
              <div key={turnId} ref={observe} data-turn-id={turnId} className="chat-turn-slot">
                <TurnView turnId={turnId} />
              </div>
            ))}
            <div aria-hidden="true" style={{ height: range.after }} />
          </>
        )}
      </div>
      <Composer />
    </main>
  );
}
