import { withheldBy, type Plugin } from './plugin.ts';
import type { ToolDefinition } from '../tools/tool-definition.ts';
import type { ToolError } from '../tools/tool-error.ts';

/**
 * The plugins of one agent and which are enabled. The agent snapshots `enabledPlugins()` when a
 * turn starts, so a toggle applies between turns, never inside a batch.
 */
export class PluginRegistry {
  private readonly plugins = new Map<string, Plugin>();
  private readonly disabled = new Set<string>();

  constructor(options: { disabled?: Iterable<string> } = {}) {
    for (const name of options.disabled ?? []) this.disabled.add(name);
  }

  register(plugin: Plugin): void {
    if (this.plugins.has(plugin.name)) throw new Error(`a plugin named '${plugin.name}' is already registered`);
    this.plugins.set(plugin.name, plugin);
  }

  /**
   * Takes a plugin out (an MCP server removed from its config); its enabled state is kept for a
   * plugin of that name registered later. The caller stops what it ran. False when there was none.
   */
  unregister(name: string): boolean {
    return this.plugins.delete(name);
  }

  all(): { plugin: Plugin; enabled: boolean }[] {
    return [...this.plugins.values()].map((plugin) => ({ plugin, enabled: !this.disabled.has(plugin.name) }));
  }

  enabledPlugins(): Plugin[] {
    return [...this.plugins.values()].filter((plugin) => !this.disabled.has(plugin.name));
  }

  /** The plugins the person turned off, in registration order. */
  disabledPlugins(): Plugin[] {
    return [...this.plugins.values()].filter((plugin) => this.disabled.has(plugin.name));
  }

  setEnabled(name: string, enabled: boolean): void {
    if (!this.plugins.has(name)) throw new Error(`there is no plugin named '${name}'`);
    if (enabled) this.disabled.delete(name);
    else this.disabled.add(name);
  }

  /** The tools of every enabled plugin (unordered: order is prompt assembly's job). */
  enabledTools(): ToolDefinition[] {
    return this.enabledPlugins().flatMap((plugin) => plugin.tools());
  }

  /** Why an enabled plugin withholds a tool of this name, if one does (see `Plugin.withheld`). */
  withheld(name: string): ToolError | undefined {
    return withheldBy(this.enabledPlugins(), name);
  }

  async dispose(): Promise<void> {
    for (const plugin of this.plugins.values()) await plugin.dispose?.();
  }
}
