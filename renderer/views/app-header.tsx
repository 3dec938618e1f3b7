import { ApprovalsPending } from './approvals-pending.tsx';
import { useAppStore } from './use-app-store.ts';

const connectionLabels = {
  connecting: 'Connecting…',
  open: 'Connected',
  closed: 'Reconnecting…',
  unauthorized: 'Not authorised',
} as const;

/** The title bar: the app's name, questions waiting for the person, the model in use (labelled plainly when it is not an AI), the link state. */
export function AppHeader() {
  const model = useAppStore((state) => state.appInfo?.model);
  const connection = useAppStore((state) => state.connection.status);
  return (
    <header className="app-header">
      <h1 className="app-title">Home Agent</h1>
      <div className="app-header-right">
        <ApprovalsPending />
        {model && (
          <span
            className={model.scripted ? 'model-label model-label-scripted' : 'model-label'}
            data-testid="model-label"
            title={model.notice ?? model.label}
          >
            {model.label}
          </span>
        )}
        <span className={`connection connection-${connection}`} data-testid="connection-status">
          {connectionLabels[connection]}
        </span>
      </div>
    </header>
  );
}
