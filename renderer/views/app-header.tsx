import { ApprovalsPending } from './approvals-pending.tsx';
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
  const drawer = useAppStore((state) => state.drawer);
  const setDrawer = useAppStore((state) => state.setDrawer);
  const toggle = (which: 'conversations' | 'side') => setDrawer(drawer === which ? null : which);
  const modelClass =
    model?.ok === false
      ? 'model-label model-label-broken'
      : model?.scripted
        ? 'model-label model-label-scripted'
        : 'model-label';
  return (
    <header className="app-header">
      <button
        type="button"
        className="drawer-toggle"
        aria-expanded={drawer === 'conversations'}
        aria-controls="conversation-drawer"
        data-testid="open-conversations"
        onClick={() => toggle('conversations')}
      >
        <span aria-hidden="true" className="drawer-toggle-icon">
          ☰
        </span>
        <span className="drawer-toggle-text">Conversations</span>
      </button>
      <h1 className="app-title">Home Agent</h1>
      <button
        type="button"
        className="drawer-toggle drawer-toggle-side"
        aria-expanded={drawer === 'side'}
        aria-controls="side-drawer"
        data-testid="open-side-panel"
        onClick={() => toggle('side')}
      >
        <span aria-hidden="true" className="drawer-toggle-icon">
          ⚙
        </span>
        <span className="drawer-toggle-text">Devices &amp; settings</span>
      </button>
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
