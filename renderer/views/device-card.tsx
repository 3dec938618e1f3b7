import { useId } from 'react';
import { describeMove, type DeviceSummary } from '../../host/contract/api-contract.ts';
import { deviceKey } from './device-list.tsx';
import { DeviceGrants } from './device-grants.tsx';
import { DeviceIdentityChange } from './device-identity-change.tsx';
import { DeviceManage } from './device-manage.tsx';
import { useAppStore } from './use-app-store.ts';

const statusLabels: Record<NonNullable<DeviceSummary['status']>, string> = {
  connecting: 'connecting',
  online: 'online',
  offline: 'offline',
  closed: 'closed',
  'left-out': 'left out',
};

/**
 * One device: its name, status in words (online/offline live, with the last error), where it is,
 * an identity change beside the trusted one, what the agent may do on it, standing approvals,
 * rename and forget, and its recent events.
 */
export function DeviceCard(props: { deviceKey: string }) {
  const device = useAppStore((state) => state.devices.find((candidate) => deviceKey(candidate) === props.deviceKey));
  const change = useAppStore((state) => (device ? state.deviceChanges[device.id] : undefined));
  const ids = useId();
  if (!device) return null;
  const status = device.status ?? (device.online ? 'online' : 'offline');
  const paired = device.source !== 'command-line';
  const leftOut = status === 'left-out';
  return (
    <li
      className={`device-row device-card device-card-${status}`}
      data-testid="device-row"
      data-device-id={device.id}
      data-online={String(device.online)}
      data-status={status}
      data-source={device.source ?? 'paired'}
      aria-labelledby={`${ids}-name`}
      aria-busy={change?.pending !== undefined}
    >
      <div className="device-head">
        <span
          className={device.online ? 'status-dot status-dot-online' : 'status-dot status-dot-offline'}
          aria-hidden="true"
        />
        <h2 className="device-alias" id={`${ids}-name`} data-testid="device-alias">
          {device.alias}
        </h2>
        <span className="device-status" data-testid="device-status">
          {statusLabels[status]}
        </span>
        <span className="device-kind">{device.kind}</span>
      </div>
      <div className="device-meta">
        <span className="device-id" data-testid="device-id">
          {device.id}
        </span>
        <span className="device-path" title={device.path}>
          {device.path}
        </span>
      </div>
      {(device.model || device.firmware) && (
        <p className="device-model">
          {device.model}
          {device.firmware ? `, firmware ${device.firmware}` : ''}
        </p>
      )}
      {device.lastError && !device.online && !leftOut && (
        <p className="device-last-error" data-testid="device-last-error">
          Last error ({new Date(device.lastError.at).toLocaleTimeString()}): {device.lastError.message}
        </p>
      )}
      {device.movedFrom && (
        <p className="side-hint" data-testid="device-moved">
          {`It ${describeMove({ from: device.movedFrom.path, to: device.path, because: device.movedFrom.because })}, at ${new Date(device.movedFrom.at).toLocaleTimeString()}: its grants came with it.`}
        </p>
      )}
      {device.conflict && (
        <p className="side-error" role="alert" data-testid="device-conflict">
          {device.conflict}
        </p>
      )}
      {device.identityChange && <DeviceIdentityChange device={device} />}
      {paired && !leftOut ? (
        <DeviceGrants device={device} />
      ) : !paired ? (
        <>
          <p className="side-hint" data-testid="command-line-note">
            Named on the command line: every action is allowed for this run.
          </p>
          <ul className="tool-chips" aria-label={`Actions of ${device.alias}, all allowed`}>
            {device.tools.map((tool) => (
              <li key={tool} className="tool-chip tool-chip-granted">
                {tool}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {paired && <DeviceManage device={device} />}
      {change?.pending && (
        <p className="side-hint" role="status" data-testid="device-change-status">
          Asking the host to {change.pending}…
        </p>
      )}
      {change?.error && (
        <p className="side-error" role="alert" data-testid="device-change-error">
          {change.error}
        </p>
      )}
      <RecentEvents device={device} />
    </li>
  );
}

/** What the device announced on its own lately (a button, a door), newest first. */
function RecentEvents(props: { device: DeviceSummary }) {
  const events = props.device.recentEvents ?? [];
  if (events.length === 0) return null;
  return (
    <details className="device-events" data-testid="device-events">
      <summary>Recent events ({events.length})</summary>
      <ol className="device-event-list" reversed>
        {[...events].reverse().map((event, index) => (
          <li key={`${event.at}-${index}`} data-testid="device-event">
            <time dateTime={new Date(event.at).toISOString()}>{new Date(event.at).toLocaleTimeString()}</time>{' '}
            <span className="tool-name">{event.event}</span>
            {Object.keys(event.data).length > 0 ? ` ${JSON.stringify(event.data)}` : ''}
          </li>
        ))}
      </ol>
    </details>
  );
}
