import type { ComponentType } from 'react';
import type { PluginSummary } from '../../state/plugins-slice.ts';

/** What a plugin's folder (renderer/views/plugins/NAME/plugin-view.tsx) adds to the Plugins tab, each part optional. */
export interface PluginView {
  /** Above the list (how other programs reach this home). */
  Header?: ComponentType;
  /** The problems of the plugins' configuration `plugins/list` reports, when there are some. */
  Problems?: ComponentType<{ problems: readonly string[] }>;
  /** In a plugin's row, under its description: nothing when the plugin is not one of its. */
  Row?: ComponentType<{ plugin: PluginSummary }>;
}
