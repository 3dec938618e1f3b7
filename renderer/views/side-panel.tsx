import { useRef, type KeyboardEvent } from 'react';
import { SIDE_TABS, type SideTab } from '../state/app-slice.ts';
import { ChannelOutputs } from './channel-outputs.tsx';
import { DeviceList } from './device-list.tsx';
import { Drawer, DrawerClose } from './drawer.tsx';
import { PluginList } from './plugin-list.tsx';
import { SettingsForm } from './settings-form.tsx';
import { useAppStore } from './use-app-store.ts';

const tabLabels: Record<SideTab, string> = {
  channels: 'Channels',
  devices: 'Devices',
  plugins: 'Plugins',
  settings: 'Settings',
};

/**
 * The side area, a landmark named for what it holds: tabs for the output channels, the devices,
 * the plugins and the settings. The tabs follow the ARIA tabs pattern: one tab stop, arrow keys
 * (and Home, End) move between tabs and show them. A drawer on narrow screens.
 */
export function SidePanel() {
  const tab = useAppStore((state) => state.sideTab);
  const showSideTab = useAppStore((state) => state.showSideTab);
  const tabs = useRef<Partial<Record<SideTab, HTMLButtonElement | null>>>({});

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>): void {
    const position = SIDE_TABS.indexOf(tab);
    const next =
      event.key === 'ArrowRight'
        ? SIDE_TABS[(position + 1) % SIDE_TABS.length]
        : event.key === 'ArrowLeft'
          ? SIDE_TABS[(position - 1 + SIDE_TABS.length) % SIDE_TABS.length]
          : event.key === 'Home'
            ? SIDE_TABS[0]
            : event.key === 'End'
              ? SIDE_TABS[SIDE_TABS.length - 1]
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    showSideTab(next);
    tabs.current[next]?.focus();
  }

  return (
    <Drawer
      which="side"
      element="aside"
      className="side-panel"
      label="Channels, devices, plugins and settings"
      testId="side-panel"
    >
      <div className="side-panel-head">
        <div className="side-tabs" role="tablist" aria-label="Side panel" onKeyDown={onKeyDown}>
          {SIDE_TABS.map((entry) => (
            <button
              key={entry}
              ref={(element) => {
                tabs.current[entry] = element;
              }}
              type="button"
              role="tab"
              id={`side-tab-${entry}`}
              aria-selected={entry === tab}
              aria-controls="side-tab-panel"
              tabIndex={entry === tab ? 0 : -1}
              className={entry === tab ? 'side-tab side-tab-selected' : 'side-tab'}
              data-testid="side-tab"
              data-tab={entry}
              onClick={() => showSideTab(entry)}
            >
              {tabLabels[entry]}
            </button>
          ))}
        </div>
        <DrawerClose label="Close the side panel" testId="close-side-panel" />
      </div>
      <div
        className="side-tab-panel"
        role="tabpanel"
        id="side-tab-panel"
        aria-labelledby={`side-tab-${tab}`}
        tabIndex={0}
        data-testid="side-tab-panel"
      >
        {tab === 'channels' && <ChannelOutputs />}
        {tab === 'devices' && <DeviceList />}
        {tab === 'plugins' && <PluginList />}
        {tab === 'settings' && <SettingsForm />}
      </div>
    </Drawer>
  );
}
