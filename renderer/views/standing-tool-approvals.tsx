import { useShallow } from 'zustand/react/shallow';
import type { AppState } from '../state/create-app-store.ts';
import { AriaDisabledButton } from './aria-disabled-button.tsx';
import { useAppStore } from './use-app-store.ts';

/**
 * The standing approvals ("Always allow") of a plugin's tools that are not a device's, each with a
 * way to take it back; device tools' are listed with their device in the Devices tab.
 */
export function StandingToolApprovals(props: { plugin: string; tools: readonly string[] }) {
  const tools = useAppStore(
    useShallow((state: AppState) =>
      state.standingApprovals
        .filter((approval) => approval.deviceId === undefined && props.tools.includes(approval.tool))
        .map((approval) => approval.tool),
    ),
  );
  const pending = useAppStore((state) => tools.some((tool) => state.deviceChanges[`tool:${tool}`]?.pending));
  const stopAlwaysAllowing = useAppStore((state) => state.stopAlwaysAllowing);
  if (tools.length === 0) return null;
  return (
    <ul className="standing-tools" aria-label={`Always allowed tools of ${props.plugin}`} data-testid="standing-tools">
      {tools.map((tool) => (
        <li key={tool}>
          <span className="tool-name">{tool}</span> runs without asking{' '}
          <AriaDisabledButton
            className="button button-small"
            aria-label={`Stop always allowing ${tool}`}
            unavailable={pending}
            onPress={() => void stopAlwaysAllowing(tool)}
          >
            Ask each time
          </AriaDisabledButton>
        </li>
      ))}
    </ul>
  );
}
