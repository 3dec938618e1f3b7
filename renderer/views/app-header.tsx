import type { Drawer } from '../state/app-slice.ts';
import { ApprovalsPending } from './approvals-pending.tsx';
import { DRAWER_PARTS } from './drawer.tsx';
import { useAppStore } from './use-app-store.ts';

const connectionLabels = {
  connecting: 'Connecting…',
  open: 'Connected',
  closed: 'Reconnecting…',
  unauthorized: 'Not authorised',
} as const;

/**
 * The title bar: the buttons that open the drawers on a narrow screen, the app's name, questions
 * waiting for the person, the model in use (labelled plainly when it is not an AI, marked when it
 * cannot be used), the link state.
 */
export function AppHeader() {
  const model = useAppStore((state) => state.appInfo?.model);
  const connection = useAppStore((state) => state.connection.status);
  const modelClass =
    model?.ok === false
      ? 'model-label model-label-broken'
      : model?.scripted
        ? 'model-label model-label-scripted'
        : 'model-label';
  return (
    <header className="app-header">
      <DrawerToggle which="conversations" className="drawer-toggle" icon="☰" text="Conversations" />
      <h1 className="app-title">Home Agent</h1>
      <DrawerToggle which="side" className="drawer-toggle drawer-toggle-side" icon="⚙" text="Devices & settings" />
      <div className="app-header-right">
        <ApprovalsPending />
        {model && (
          <span className={modelClass} data-testid="model-label" title={model.notice ?? model.label}>
            {model.ok === false ? `${model.label} — see Settings` : model.label}
          </span>
        )}
        <span className={`connection connection-${connection}`} data-testid="connection-status">
          <span className="connection-text">{connectionLabels[connection]}</span>
        </span>
      </div>
    </header>
  );
}

/** The header button that opens a drawer (or closes it when open); shown on narrow screens only. */
function DrawerToggle(props: { which: Drawer; className: string; icon: string; text: string }) {
  const expanded = useAppStore((state) => state.drawer === props.which);
  const setDrawer = useAppStore((state) => state.setDrawer);
  const { id, toggleTestId } = DRAWER_PARTS[props.which];
  return (
    <button
      type="button"
      className={props.className}
      aria-expanded={expanded}
      aria-controls={id}
      data-testid={toggleTestId}
      onClick={() => setDrawer(expanded ? null : props.which)}
    >
      <span aria-hidden="true" className="drawer-toggle-icon">
        {props.icon}
      </span>
      <span className="drawer-toggle-text">{props.text}</span>
    </button>
  );
}
