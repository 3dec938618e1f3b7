import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { contextLine } from '../../host/contract/context-line.ts';
import { Composer } from './composer.tsx';
import { TurnView } from './turn-view.tsx';
import { useAppStore } from './use-app-store.ts';
import { itemAt, offsetOf, visibleRange } from './visible-range.ts';

const noTurns: string[] = [];
/** A turn's height before any turn was measured (px); after that, the average of those measured. */
const ESTIMATED_TURN_PX = 320;
/** How far beyond the visible part turns are still drawn (px), so a quick scroll meets drawn turns. */
const OVERSCAN_PX = 1200;
/** How far the view scrolls before the drawn band follows it (px); well within the overscan. */
const REDRAW_STEP_PX = 600;
/** How close to the top an older page of the journal is read (px): a few screens, so it is there before the person is. */
const LOAD_OLDER_PX = 4000;
/** The height of the line saying older messages are being read (styles.css `.chat-older`), above the turns. */
const OLDER_LINE_PX = 36;
/** Room kept above a question held in sight (px), so the call it belongs to shows with it. */
const QUESTION_MARGIN_PX = 12;

/** The turn at the top of the view, where the model places it, and how far into it the view begins. */
interface Anchor {
  id: string;
  start: number;
  offset: number;
}

/**
 * The open conversation's turns, kept scrolled to the newest, with the composer below: the page's
 * main landmark. Only the turns near the visible part are drawn (a long history is thousands of
 * turns); the others are space of their measured height (or the average measured so far). The
 * turn at the top of the view stays where it is when turns above it are added (an older page of
 * the journal, read as the person nears the top) or measured: the view moves by what changed above
 * it, from the heights it keeps, without reading the page's layout. The browser's own scroll
 * anchoring is off in this region (styles.css), so the two never both move it.
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
  const loadingOlder = useAppStore((state) =>
    state.openConversationId ? state.loadingOlder[state.openConversationId] === true : false,
  );
  const loadOlder = useAppStore((state) => state.loadOlderEvents);
  // Whether a question waits in this conversation: only then is the page searched for one to hold.
  const questionWaiting = useAppStore((state) =>
    Object.values(state.approvals).some(
      (approval) => approval.status === 'waiting' && approval.conversationId === state.openConversationId,
    ),
  );
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const heights = useRef(new Map<string, number>());
  const measuredSum = useRef({ total: 0, count: 0 });
  const anchor = useRef<Anchor | undefined>(undefined);
  // Where the view stopped following the end to keep a question in sight, and the questions the
  // person scrolled away from (not held again).
  const heldQuestion = useRef<{ key: string; scrollTop: number } | undefined>(undefined);
  const letGo = useRef(new Set<string>());
  const [view, setView] = useState({ top: 0, height: 800 });
  const [measured, setMeasured] = useState(0);

  const sizes = useMemo(
    () => {
      const { total: sum, count } = measuredSum.current;
      const estimate = count > 0 ? Math.round(sum / count) : ESTIMATED_TURN_PX;
      return turnIds.map((id) => heights.current.get(id) ?? estimate);
    },
    // `measured` changes when a drawn turn's height does.
    [turnIds, measured],
  );
  const lead = olderExists ? OLDER_LINE_PX : 0;
  const total = sizes.reduce((sum, size) => sum + size, lead);
  const anchorIndex = anchor.current ? turnIds.indexOf(anchor.current.id) : -1;
  const anchorStart = anchorIndex >= 0 ? lead + offsetOf(sizes, anchorIndex) : undefined;
  // Pinned to the end, the band is the end (before the scroll event that follows new output);
  // else it is where the anchor now is, which an older page or a measured turn above may have moved.
  const top = pinned.current
    ? Math.max(0, total - view.height)
    : anchorStart !== undefined
      ? anchorStart + anchor.current!.offset
      : view.top;
  const range = visibleRange({
    sizes,
    top: top - lead - OVERSCAN_PX,
    bottom: top - lead + view.height + OVERSCAN_PX,
  });
  // What onScroll reads to find the turn at the top: this drawing's heights and order.
  const model = useRef({ sizes, turnIds, lead });
  model.current = { sizes, turnIds, lead };

  // Whether a question waits here, as this drawing knows: what both ways of following the end read.
  const waitingNow = useRef(questionWaiting);
  waitingNow.current = questionWaiting;

  // One observer for every drawn turn. A measured height changes the model at once (before the
  // frame is painted), so the view is moved by what changed above it in the same frame. Following
  // the end, the view moves to the end itself, and the model is drawn again in a task of its own:
  // the band drawn is the end either way, well within the overscan, and the frame that drew the
  // new rows does not also draw the chat again and lay it out twice.
  const observer = useMemo(
    () =>
      typeof ResizeObserver === 'function'
        ? new ResizeObserver((entries) => {
            let changed = false;
            for (const entry of entries) {
              const element = entry.target as HTMLElement;
              const id = element.dataset.turnId;
              // A turn that left the page reports no height: it keeps the one it had.
              if (!id || !element.isConnected) continue;
              const height = Math.round(entry.contentRect.height);
              const before = heights.current.get(id);
              if (before === height) continue;
              heights.current.set(id, height);
              measuredSum.current.total += height - (before ?? 0);
              if (before === undefined) measuredSum.current.count += 1;
              changed = true;
            }
            if (!changed) return;
            const element = scroller.current;
            if (pinned.current && element) {
              heldQuestion.current = followEnd(element, waitingNow.current, letGo.current);
              setMeasured((count) => count + 1);
            } else flushSync(() => setMeasured((count) => count + 1));
          })
        : undefined,
    [],
  );
  useEffect(() => () => observer?.disconnect(), [observer]);
  const observe = useCallback(
    (element: HTMLDivElement | null) => {
      if (!element || !observer) return undefined;
      observer.observe(element);
      return () => observer.unobserve(element);
    },
    [observer],
  );

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    // New output moves the view to the end while the person has not scrolled up to read, but never
    // past a question waiting for them: rows drawn and ending below it must not push it out of sight.
    if (pinned.current) {
      heldQuestion.current = followEnd(element, waitingNow.current, letGo.current);
      return;
    }
    // Turns added or measured above the anchor: the view moves by as much, so what it shows stays.
    const held = anchor.current;
    if (held && anchorStart !== undefined && anchorStart !== held.start) {
      element.scrollTop += anchorStart - held.start;
      held.start = anchorStart;
    }
  });

  const onScroll = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    const scrollTop = element.scrollTop;
    // Follow new output only while the person has not scrolled up to read. A scroll of their own
    // while a question is held lets that question go.
    const hold = heldQuestion.current;
    const ours = hold !== undefined && Math.abs(scrollTop - hold.scrollTop) < 1;
    if (hold !== undefined && !ours) {
      letGo.current.add(hold.key);
      heldQuestion.current = undefined;
    }
    pinned.current = ours || element.scrollHeight - scrollTop - element.clientHeight < 48;
    const { sizes: heightsNow, turnIds: ids, lead: leadNow } = model.current;
    const at = itemAt(heightsNow, scrollTop - leadNow);
    const id = ids[at.index];
    anchor.current =
      id === undefined ? undefined : { id, start: leadNow + at.offset, offset: scrollTop - leadNow - at.offset };
    // The drawn band moves in steps: a scroll within the overscan needs no new drawing.
    setView((current) =>
      Math.abs(current.top - scrollTop) < REDRAW_STEP_PX && current.height === element.clientHeight
        ? current
        : { top: scrollTop, height: element.clientHeight },
    );
    if (openId && olderExists && scrollTop < LOAD_OLDER_PX) void loadOlder(openId);
  }, [openId, olderExists, loadOlder]);

  // The first drawing takes the real height of the region; another conversation starts at its end.
  useLayoutEffect(() => {
    const element = scroller.current;
    anchor.current = undefined;
    pinned.current = true;
    heldQuestion.current = undefined;
    letGo.current.clear();
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
            {olderExists && (
              <div className="chat-older" data-testid="chat-older">
                {loadingOlder ? 'Loading older messages…' : 'Older messages load as you scroll up.'}
              </div>
            )}
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

/**
 * Moves the view to the end of new output, but never past the row of a question waiting for the
 * person (`questionWaiting`) that they have not let go: the question held, and where, or undefined.
 */
function followEnd(
  element: HTMLElement,
  questionWaiting: boolean,
  letGo: ReadonlySet<string>,
): { key: string; scrollTop: number } | undefined {
  const end = element.scrollHeight - element.clientHeight;
  const question = questionWaiting ? questionInView(element, letGo) : undefined;
  const stop = question === undefined ? end : Math.min(end, question.top - QUESTION_MARGIN_PX);
  element.scrollTop = stop;
  return question !== undefined && stop < end ? { key: question.key, scrollTop: element.scrollTop } : undefined;
}

/**
 * The first question for the person drawn in the view and not let go: its key and where its call's
 * row starts in the scrolled content (px). Read only while following the end, which lays out anyway.
 */
function questionInView(scroller: HTMLElement, letGo: ReadonlySet<string>): { key: string; top: number } | undefined {
  for (const card of scroller.querySelectorAll<HTMLElement>('.approval-card')) {
    const key = card.dataset.approvalId ?? card.dataset.callId ?? '';
    if (letGo.has(key)) continue;
    const start = (card.closest('.tool-row') ?? card).getBoundingClientRect().top;
    return { key, top: start - scroller.getBoundingClientRect().top + scroller.scrollTop };
  }
  return undefined;
}
