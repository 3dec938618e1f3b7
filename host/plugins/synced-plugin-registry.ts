import { PluginRegistry } from '../../core/plugins/plugin-registry.ts';
import type { Plugin } from '../../core/plugins/plugin.ts';
import { startStoreLooks } from '../store/store-looks.ts';

/** Where the registry reads the persisted plugin state, and how it learns another connection changed it. */
export interface SyncedPluginRegistryOptions {
  /** The names of the plugins turned off, as stored (PluginStateStore.listDisabled). */
  listDisabled: () => readonly string[];
  /** SQLite's `data_version` of the host's connection: it moves when another connection commits. */
  dataVersion: () => number;
  /** The enabled plugins changed because another process changed the store (to tell every front end). */
  onChange: () => void;
  /** A look the timer made failed (a locked store); the next look tries again. */
  log: (line: string) => void;
  /** How often to look for changes made elsewhere while nothing asks (default 200 ms). */
  pollMs?: number;
}

/**
 * The plugin registry kept true to the plugin state in the store, as PairedDevicesSync keeps the
 * devices: every read of which plugins are enabled (a turn's start, an MCP call or listing, the
 * ToolAPI) looks first (one `PRAGMA data_version` when nothing changed), so a plugin turned off by
 * another process is off here before the next call; a timer looks too, so front ends and MCP
 * clients hear of it while nothing asks. A turn still runs on the plugins it snapshotted.
 */
export class SyncedPluginRegistry extends PluginRegistry {
  private version: number | undefined;
  private stopLooks: (() => void) | undefined;
  private applying = false;
  private disposed = false;

  constructor(private readonly sync: SyncedPluginRegistryOptions) {
    super({ disabled: sync.listDisabled() });
  }

  override all(): { plugin: Plugin; enabled: boolean }[] {
    this.check();
    return super.all();
  }

  override enabledPlugins(): Plugin[] {
    this.check();
    return super.enabledPlugins();
  }

  override disabledPlugins(): Plugin[] {
    this.check();
    return super.disabledPlugins();
  }

  /** Applies what another connection committed since the last look; true when a plugin changed state. */
  check(): boolean {
    if (this.disposed || this.applying) return false;
    const version = this.sync.dataVersion();
    if (version === this.version) return false;
    this.version = version;
    return this.apply();
  }

  /** Applies the store now, whatever data_version says (after every plugin is registered). */
  refresh(): boolean {
    if (this.disposed) return false;
    this.version = this.sync.dataVersion();
    return this.apply();
  }

  /** Starts looking every `pollMs`; the timer never keeps the process alive. */
  start(): void {
    if (this.stopLooks !== undefined || this.disposed) return;
    this.stopLooks = startStoreLooks({
      check: () => this.check(),
      pollMs: this.sync.pollMs ?? 200,
      what: 'the plugin state',
      log: this.sync.log,
    });
  }

  /** Stops looking at the store (the host is going away). */
  stop(): void {
    this.disposed = true;
    this.stopLooks?.();
    this.stopLooks = undefined;
  }

  override async dispose(): Promise<void> {
    this.stop();
    await super.dispose();
  }

  private apply(): boolean {
    this.applying = true;
    let changed = false;
    try {
      const disabled = new Set(this.sync.listDisabled());
      // A stored name no plugin of this host has (an MCP server of another run's config) changes nothing here.
      for (const { plugin, enabled } of super.all()) {
        const wanted = !disabled.has(plugin.name);
        if (wanted === enabled) continue;
        this.setEnabled(plugin.name, wanted);
        changed = true;
      }
    } finally {
      this.applying = false;
    }
    if (changed) this.sync.onChange();
    return changed;
  }
}
