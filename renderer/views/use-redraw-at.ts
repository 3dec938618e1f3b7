import { useEffect, useState } from 'react';

/** Draws the component again once the clock reaches `at` (ms since the epoch); nothing when undefined. */
export function useRedrawAt(at: number | undefined): void {
  const [, setDrawn] = useState(0);
  useEffect(() => {
    if (at === undefined) return undefined;
    const timer = setTimeout(() => setDrawn((count) => count + 1), Math.max(0, at - Date.now()) + 1);
    return () => clearTimeout(timer);
  }, [at]);
}
