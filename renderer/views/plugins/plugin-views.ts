import type { PluginView } from './plugin-view.ts';

// Every folder here with a plugin-view.tsx adds its view to the Plugins tab: this list names none.
const found = import.meta.glob<PluginView>('./*/plugin-view.tsx', { eager: true, import: 'pluginView' });

/** Every plugin's view, in the order of its folder's name. */
export const PLUGIN_VIEWS: readonly PluginView[] = Object.keys(found)
  .sort()
  .flatMap((key) => found[key] ?? []);
