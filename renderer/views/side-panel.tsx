import { SIDE_TABS, type SideTab } from '../state/app-slice.ts';
import { ChannelOutputs } from './channel-outputs.tsx';
import { DeviceList } from './device-list.tsx';
import { PluginList } from './plugin-list.tsx';
import { SettingsForm } from './settings-form.tsx';
import { useAppStore } from './use-app-store.ts';

const tabLabels: Record<SideTab, string> = {
  channels: 'Channels',
  devices: 'Devices',
  plugins: 'Plugins',
  settings: 'Settings',
};

/** The side area: tabs for the output channels, the devices, the plugins and the settings. */
export function SidePanel() {
  const tab = useAppStore((state) => state.sideTab);
  const showSideTab = useAppStore((state) => state.showSideTab);
  return (
    <aside className="side-panel" aria-label="Side panel">
      <div className="side-tabs" role="tablist" aria-label="Side panel">
        {SIDE_TABS.map((entry) => (
          <button
            key={entry}
            type="button"
            role="tab"
            id={`side-tab-${entry}`}
            aria-selected={entry === tab}
            aria-controls="side-tab-panel"
            className={entry === tab ? 'side-tab side-tab-selected' : 'side-tab'}
            data-testid="side-tab"
            data-tab={entry}
            onClick={() => showSideTab(entry)}
          >
            {tabLabels[entry]}
          </button>
        ))}
      </div>
      <div className="side-tab-panel" role="tabpanel" id="side-tab-panel" aria-labelledby={`side-tab-${tab}`}>
        {tab === 'channels' && <ChannelOutputs />}
        {tab === 'devices' && <DeviceList />}
        {tab === 'plugins' && <PluginList />}
        {tab === 'settings' && <SettingsForm />}
      </div>
    </aside>
  );
}
