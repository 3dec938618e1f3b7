import type Database from 'better-sqlite3';
import type { z } from 'zod';
import type { Emitter } from '../../core/events/emitter.ts';
import type { Plugin } from '../../core/plugins/plugin.ts';
import type { PluginRegistry } from '../../core/plugins/plugin-registry.ts';
import type { ToolApi } from '../../core/tools/tool-api.ts';
import type { Settings } from '../contract/settings-table.ts';
import type { InvalidRowHandler } from '../store/parse-stored-row.ts';
import type { StandingApprovalStore } from '../store/standing-approval-store.ts';
import type { SecretStore } from '../secrets/secret-store.ts';
import type { ElicitationAsker } from '../approvals/pending-elicitations.ts';
import type { BUILTIN_PLUGIN_STATUS } from '../contract/builtin/builtin-plugin-contract.ts';

/** What `plugins/list` shows of a plugin besides its name, description, switch and tools. */
export type PluginStatusFields = z.output<z.ZodObject<typeof BUILTIN_PLUGIN_STATUS>>;

/** A sign-in started in the host: where the person's browser goes (absent: signed in already), and where the tokens are kept. */
export interface SignInStart {
  url?: string;
  keptIn: string;
}

/** What a built-in plugin may use once the store is open. */
export interface PluginStartContext {
  db: Database.Database;
  onInvalidRow: InvalidRowHandler;
  /** The settings the next turn uses. */
  settings: () => Settings;
  /** Plugins reach tools only through the ToolAPI (the same gates as the agent's own calls). */
  toolApi: () => ToolApi;
  /** Every plugin registered so far, with its enabled state. */
  plugins: PluginRegistry;
  standingApprovals: StandingApprovalStore;
  /** Puts a question to the person at their front end during a call (elicitation); declined when none is open. */
  askPerson: ElicitationAsker;
  log: (line: string) => void;
  version: string;
  /** Resolves when no turn runs: a plugin whose configuration changed applies it between turns. */
  whenNoTurnRuns?: () => Promise<void>;
  /** The OS keychain's store (the desktop app), for secrets a plugin keeps; absent without a keychain. */
  secrets?: SecretStore;
}

/**
 * A running built-in plugin, or a family of them (one per configured server): its plugins for the
 * registry, and what the API, the front ends and the host's lifetime need of it, each optional.
 */
export interface PluginPart {
  readonly plugins: readonly Plugin[];
  /** Problems of its configuration, each saying what to do. */
  readonly problems?: readonly string[];
  /** What anything a front end shows of it changed (for the `plugins/changed` notice). */
  readonly changes?: Emitter<void>;
  /** Standing approvals were revoked (for the `approvals/changed` notice). */
  readonly approvalsChanged?: Emitter<void>;
  /** What `plugins/list` adds to one of its plugins; undefined for another's. */
  listing?(name: string, enabled: boolean): PluginStatusFields | undefined;
  /** Trusts one of its plugins or takes the trust back; undefined when the plugin is not one it trusts. */
  trust?(name: string, trusted: boolean, declarationHash?: string): 'applied' | 'changed' | undefined;
  /**
   * Starts the person's sign-in to one of its plugins' servers here (tokens kept where this host keeps
   * them): the address to open, or none when the server accepts the sign-in kept; `refused` with why
   * (a plugin that does not sign in, or is turned off); undefined when the plugin is not one of its.
   */
  signIn?(name: string): Promise<SignInStart | { refused: string } | undefined>;
  /** Signs out of one of its plugins' servers (its tokens go); as `signIn` for the rest. */
  signOut?(name: string): Promise<{ removed: boolean } | { refused: string } | undefined>;
  /** Resolves once its enabled plugins are ready or failed, or after `timeoutMs`; the names still starting. */
  whenSettled?(options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<string[]>;
  /** Brings what runs in line with the enabled plugins (at start, and after every toggle). */
  sync?(): void;
  /** Stops what it started, when the host fails to start. */
  dispose?(): Promise<void>;
}

/**
 * A built-in plugin as the host composes it: `prepare` reads what it needs before anything opens
 * (a config named on the command line that cannot be read stops the start there), then the
 * function it returns starts it once the store is open (undefined: nothing to run).
 */
export interface HostPluginManifest<Options> {
  prepare(options: { dataDir: string } & Options): (context: PluginStartContext) => Promise<PluginPart | undefined>;
}
