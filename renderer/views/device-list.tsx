import { useAppStore } from './use-app-store.ts';

/** The Devices tab: every device the host knows, online or not, with its tools; re-read after each turn and on Refresh. */
export function DeviceList() {
  const devices = useAppStore((state) => state.devices);
  const status = useAppStore((state) => state.devicesStatus);
  const error = useAppStore((state) => state.devicesError);
  const refreshDevices = useAppStore((state) => state.refreshDevices);
  return (
    <section className="side-section" aria-label="Devices">
      <div className="side-section-bar">
        <span className="side-section-count">
          {status === 'loaded' || devices.length > 0
            ? `${devices.length} device${devices.length === 1 ? '' : 's'}`
            : ''}
        </span>
        <button
          type="button"
          className="button button-small"
          data-testid="devices-refresh"
          disabled={status === 'loading'}
          onClick={() => void refreshDevices()}
        >
          {status === 'loading' ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      {error && (
        <p className="side-error" role="alert" data-testid="devices-error">
          {error}
        </p>
      )}
      {status === 'loaded' && devices.length === 0 && (
        <p className="side-empty">
          No devices. Pair one with <code>home-agent devices pair PATH</code>, or start with <code>--sim</code>.
        </p>
      )}
      <ul className="device-list">
        {devices.map((device) => (
          <li
            key={device.id}
            className="device-row"
            data-testid="device-row"
            data-device-id={device.id}
            data-online={String(device.online)}
          >
            <div className="device-head">
              <span
                className={device.online ? 'status-dot status-dot-online' : 'status-dot status-dot-offline'}
                role="img"
                aria-label={device.online ? 'online' : 'offline'}
                title={device.online ? 'online' : 'offline'}
              />
              <span className="device-alias">{device.alias}</span>
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
            <ul className="tool-chips" aria-label={`Tools of ${device.alias}`}>
              {device.tools.map((tool) => (
                <li key={tool} className="tool-chip">
                  {tool}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}
