import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * How far past its scroller's edges a row is still drawn in full (px): a row scrolled into view at
 * an ordinary pace is whole before it shows. Further away it is drawn as its line of text alone.
 */
export const NEAR_MARGIN_PX = 150;

/** Rows drawn whole per frame as they come near, the nearest first: at 8 such a frame took up to 20 ms of CPU. */
export const WHOLE_ROWS_PER_FRAME = 4;

/** Which rows of a large batch are drawn in full; `watch` is each row's element ref (named by its `data-call-id`). */
export interface NearRows {
  isNear(callId: string): boolean;
  watch: ((element: Element | null) => (() => void) | undefined) | undefined;
}

const everyRowNear: NearRows = { isNear: () => true, watch: undefined };

/**
 * The rows of a panel (`enabled`: it has more rows than a screen holds) near the view, by
 * one IntersectionObserver: a row far off screen is drawn as little as says what it is, so a call
 * ending there, or the batch's first drawing, costs almost nothing. A row the observer has not yet
 * seen is far, except those drawn whole before the panel grew large (they stay so until it looks).
 * Without an IntersectionObserver every row is near.
 */
export function useNearRows(options: { enabled: boolean; calls: readonly { callId: string }[] }): NearRows {
  const active = options.enabled && typeof IntersectionObserver === 'function';
  // The rows drawn whole while the panel was small stay whole when it grows, until the observer looks.
  const drawnWhole = useRef(options.calls);
  if (!active) drawnWhole.current = options.calls;
  const [near, setNear] = useState<ReadonlySet<string>>(() => new Set());
  const [wasActive, setWasActive] = useState(active);
  if (wasActive !== active) {
    setWasActive(active);
    if (active) setNear(new Set(drawnWhole.current.map((call) => call.callId)));
  }
  // What the observer's callback reads: rows already whole are not queued again.
  const nearNow = useRef(near);
  nearNow.current = near;
  const observer = useRef<IntersectionObserver | undefined>(undefined);
  // Rows that came near and wait for their frame, by distance from the view's middle.
  const waiting = useRef(new Map<string, number>());
  const frame = useRef<number | undefined>(undefined);

  const drawNearest = useCallback((): void => {
    frame.current = undefined;
    const next = [...waiting.current.entries()].sort((a, b) => a[1] - b[1]).slice(0, WHOLE_ROWS_PER_FRAME);
    for (const [id] of next) waiting.current.delete(id);
    if (next.length > 0) setNear((current) => new Set([...current, ...next.map(([id]) => id)]));
    if (waiting.current.size > 0) frame.current = requestAnimationFrame(drawNearest);
  }, []);

  const seen = useCallback(
    (entries: IntersectionObserverEntry[]): void => {
      const gone: string[] = [];
      for (const entry of entries) {
        const id = entry.target.getAttribute('data-call-id');
        if (id === null) continue;
        if (entry.isIntersecting) {
          if (nearNow.current.has(id)) continue;
          const view = entry.rootBounds;
          const middle = view ? view.top + view.height / 2 : 0;
          waiting.current.set(
            id,
            Math.abs(entry.boundingClientRect.top + entry.boundingClientRect.height / 2 - middle),
          );
        } else {
          waiting.current.delete(id);
          gone.push(id);
        }
      }
      if (gone.length > 0)
        setNear((current) => {
          if (!gone.some((id) => current.has(id))) return current;
          const kept = new Set(current);
          for (const id of gone) kept.delete(id);
          return kept;
        });
      if (waiting.current.size > 0 && frame.current === undefined) drawNearest();
    },
    [drawNearest],
  );

  const watch = useCallback(
    (element: Element | null): (() => void) | undefined => {
      if (!element) return undefined;
      // The margin reaches past the window's edges and past those of the scroller the rows are in
      // (`scrollMargin`): no root to look for, so no style is read while rows are drawn.
      observer.current ??= new IntersectionObserver(seen, {
        rootMargin: `${NEAR_MARGIN_PX}px 0px`,
        scrollMargin: `${NEAR_MARGIN_PX}px 0px`,
      });
      const watching = observer.current;
      watching.observe(element);
      return () => watching.unobserve(element);
    },
    [seen],
  );

  useEffect(
    () => () => {
      observer.current?.disconnect();
      if (frame.current !== undefined) cancelAnimationFrame(frame.current);
    },
    [],
  );

  const isNear = useCallback((id: string) => near.has(id), [near]);
  return active ? { isNear, watch } : everyRowNear;
}
