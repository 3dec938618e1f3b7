import { useEffect, useState } from 'react';

/** The longest wait a timer takes (ms): a longer one fires at once. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** Draws the component again once the clock reaches `at` (ms since the epoch); nothing when undefined. */
export function useRedrawAt(at: number | undefined): void {
  const [, setDrawn] = useState(0);
  useEffect(() => {
    if (at === undefined) return undefined;
    const timer = setTimeout(
      () => setDrawn((count) => count + 1),
      Math.min(Math.max(0, at - Date.now()) + 1, LONGEST_TIMER_MS),
    );
    return () => clearTimeout(timer);
  }, [at]);
}
