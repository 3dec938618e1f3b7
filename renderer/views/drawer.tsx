import { useRef, type ReactNode } from 'react';
import type { Drawer as DrawerName } from '../state/app-slice.ts';
import { useAppStore } from './use-app-store.ts';
import { useDrawerFocus } from './use-drawer-focus.ts';

/** Per drawer: its element's id (what its header button controls), that button's test id, and its edge. */
export const DRAWER_PARTS: Record<DrawerName, { id: string; toggleTestId: string; side: 'left' | 'right' }> = {
  conversations: { id: 'conversation-drawer', toggleTestId: 'open-conversations', side: 'left' },
  side: { id: 'side-drawer', toggleTestId: 'open-side-panel', side: 'right' },
};

/**
 * An area beside the chat on a wide screen and a drawer over it on a narrow one: a landmark named
 * `label`; when it opens the focus moves in, when it closes back to the header button that opened it.
 */
export function Drawer(props: {
  which: DrawerName;
  element: 'nav' | 'aside';
  className: string;
  label: string;
  testId: string;
  children: ReactNode;
}) {
  const open = useAppStore((state) => state.drawer === props.which);
  const container = useRef<HTMLElement>(null);
  const { id, toggleTestId, side } = DRAWER_PARTS[props.which];
  useDrawerFocus(open, container, toggleTestId);
  const Element = props.element;
  return (
    <Element
      id={id}
      ref={container}
      className={`${props.className} drawer drawer-${side}${open ? ' drawer-open' : ''}`}
      aria-label={props.label}
      data-testid={props.testId}
    >
      {props.children}
    </Element>
  );
}

/** The × that closes the open drawer (shown on narrow screens only). */
export function DrawerClose(props: { label: string; testId: string }) {
  const setDrawer = useAppStore((state) => state.setDrawer);
  return (
    <button
      type="button"
      className="drawer-close"
      aria-label={props.label}
      data-testid={props.testId}
      onClick={() => setDrawer(null)}
    >
      ×
    </button>
  );
}
