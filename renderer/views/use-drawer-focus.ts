import { useEffect, useRef, type RefObject } from 'react';

/**
 * Moves the focus into a drawer when it opens (its first control), and back to the button that
 * opened it when it closes, so a keyboard user never loses their place.
 */
export function useDrawerFocus(open: boolean, container: RefObject<HTMLElement | null>, toggleTestId: string): void {
  const wasOpen = useRef(open);
  useEffect(() => {
    if (open && !wasOpen.current) {
      container.current
        ?.querySelector<HTMLElement>('button:not([disabled]), input:not([disabled]), select, textarea, [tabindex="0"]')
        ?.focus();
    } else if (!open && wasOpen.current) {
      const toggle = document.querySelector<HTMLElement>(`[data-testid="${toggleTestId}"]`);
      // Only when the focus was in the drawer (or lost with it): a click elsewhere keeps its own focus.
      if (
        !document.activeElement ||
        document.activeElement === document.body ||
        container.current?.contains(document.activeElement)
      )
        toggle?.focus();
    }
    wasOpen.current = open;
  }, [open, container, toggleTestId]);
}
