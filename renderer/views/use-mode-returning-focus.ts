import { useEffect, useRef, useState } from 'react';

/**
 * A row's mode — `idle`, or a form or question shown in place — where going back to `idle` gives
 * the focus to the button that opened the mode left, so the keyboard never loses its place.
 * `opener(mode)` is the ref of the button that opens `mode`.
 */
export function useModeReturningFocus<Mode extends string>(idle: Mode) {
  const [mode, setMode] = useState<Mode>(idle);
  const openers = useRef<Partial<Record<Mode, HTMLButtonElement | null>>>({});
  const returnTo = useRef<Mode | null>(null);
  useEffect(() => {
    if (mode !== idle || returnTo.current === null) return;
    openers.current[returnTo.current]?.focus();
    returnTo.current = null;
  }, [mode, idle]);
  return {
    mode,
    open: (next: Mode): void => setMode(next),
    /** Back to `idle` from the mode this render shows; its opener gets the focus. */
    close: (): void => {
      returnTo.current = mode;
      setMode(idle);
    },
    opener:
      (which: Mode) =>
      (element: HTMLButtonElement | null): void => {
        openers.current[which] = element;
      },
  };
}
