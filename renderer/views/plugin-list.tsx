import { useShallow } from 'zustand/react/shallow';
import type { AppState } from '../state/create-app-store.ts';
import { ConfirmQuestion } from './confirm-question.tsx';
import { useAppStore } from './use-app-store.ts';
import { StandingToolApprovals } from './standing-tool-approvals.tsx';
import { PLUGIN_VIEWS } from './plugins/plugin-views.ts';

/** The Plugins tab: every plugin with its tools and an on/off switch; a change applies from the next turn. */
export function PluginList() {
  const names = useAppStore(useShallow((state: AppState) => state.plugins.map((plugin) => plugin.name)));
  const status = useAppStore((state) => state.pluginsStatus);
  const error = useAppStore((state) => state.pluginsError);
  const crowded = useAppStore((state) => state.pluginsContextWarning);
  const problems = useAppStore((state) => state.pluginProblems);
  return (
    <section className="side-section" aria-label="Plugins">
      {PLUGIN_VIEWS.map((view, index) => view.Header && <view.Header key={index} />)}
      <p className="side-hint">A change applies from the next turn.</p>
      {crowded && (
        <p className="plugin-context-warning" data-testid="plugins-context-warning" role="note">
          {crowded}
        </p>
      )}
      {error && (
        <p className="side-error" role="alert">
          {error}
        </p>
      )}
      {problems.length > 0 &&
        PLUGIN_VIEWS.map((view, index) => view.Problems && <view.Problems key={index} problems={problems} />)}
      {status === 'loaded' && names.length === 0 && <p className="side-empty">No plugins.</p>}
      <ul className="plugin-list">
        {names.map((name) => (
          <PluginRow key={name} name={name} />
        ))}
      </ul>
    </section>
  );
}

/** One plugin: name, switch, description, tools, and — when the host warned about this change — the question. */
function PluginRow(props: { name: string }) {
  const plugin = useAppStore((state) => state.plugins.find((entry) => entry.name === props.name));
  const busy = useAppStore((state) => state.pluginToggle.phase !== 'idle');
  const sending = useAppStore(
    (state) => state.pluginToggle.phase === 'sending' && state.pluginToggle.name === props.name,
  );
  const warning = useAppStore((state) =>
    state.pluginToggle.phase === 'warning' && state.pluginToggle.name === props.name
      ? state.pluginToggle.warning
      : undefined,
  );
  const error = useAppStore((state) =>
    state.pluginToggle.phase === 'idle' && state.pluginToggle.error?.name === props.name
      ? state.pluginToggle.error.message
      : undefined,
  );
  const setPluginEnabled = useAppStore((state) => state.setPluginEnabled);
  if (!plugin) return null;
  const switchId = `plugin-toggle-${plugin.name}`;
  return (
    <li
      className={plugin.enabled ? 'plugin-row' : 'plugin-row plugin-row-disabled'}
      data-testid="plugin-row"
      data-plugin={plugin.name}
      data-enabled={String(plugin.enabled)}
    >
      <div className="plugin-head">
        <label className="plugin-name" htmlFor={switchId}>
          {plugin.name}
        </label>
        <input
          id={switchId}
          type="checkbox"
          role="switch"
          className="switch"
          data-testid="plugin-toggle"
          data-plugin={plugin.name}
          checked={plugin.enabled}
          // Not `disabled`: a disabled control drops the keyboard focus to the page while the change is sent.
          aria-disabled={busy}
          aria-busy={sending}
          onChange={(event) => {
            if (!busy) void setPluginEnabled(plugin.name, event.currentTarget.checked);
          }}
        />
      </div>
      <p className="plugin-description">{plugin.description}</p>
      {PLUGIN_VIEWS.map((view, index) => view.Row && <view.Row key={index} plugin={plugin} />)}
      <ul className="tool-chips" aria-label={`Tools of ${plugin.name}`}>
        {plugin.tools.map((tool) => (
          <li key={tool} className="tool-chip">
            {tool}
          </li>
        ))}
      </ul>
      <StandingToolApprovals plugin={plugin.name} tools={plugin.tools} />
      {warning !== undefined && (
        <PluginWarning
          name={plugin.name}
          warning={warning}
          // The answer closes the question: the focus goes back to the switch it came from.
          onClose={() => document.getElementById(switchId)?.focus()}
        />
      )}
      {error !== undefined && (
        <p className="side-error" role="alert" data-testid="plugin-error">
          {error}
        </p>
      )}
    </li>
  );
}

/** The host's warning about a change, with the two ways out; Keep enabled takes the focus, the safe choice. */
function PluginWarning(props: { name: string; warning: string; onClose: () => void }) {
  const confirm = useAppStore((state) => state.confirmPluginWarning);
  const cancel = useAppStore((state) => state.cancelPluginWarning);
  const titleId = `plugin-warning-title-${props.name}`;
  return (
    <ConfirmQuestion
      className="plugin-warning"
      role="alertdialog"
      aria-labelledby={titleId}
      data-testid="plugin-warning"
      data-plugin={props.name}
      actionsClassName="plugin-warning-actions"
      keep={{ label: 'Keep enabled', testId: 'plugin-warning-cancel' }}
      confirm={{ label: 'Disable anyway', testId: 'plugin-warning-confirm' }}
      onKeep={() => {
        cancel();
        props.onClose();
      }}
      onConfirm={() => {
        void confirm();
        props.onClose();
      }}
    >
      <p className="plugin-warning-title" id={titleId}>
        Disable {props.name}?
      </p>
      <p className="plugin-warning-text" data-testid="plugin-warning-text">
        {props.warning}
      </p>
    </ConfirmQuestion>
  );
}
