import type { Agent } from '../../core/agent/agent.ts';
import type { ContextKeeper } from '../../core/context/context-keeper.ts';
import type { Emitter } from '../../core/events/emitter.ts';
import type { PluginRegistry } from '../../core/plugins/plugin-registry.ts';
import type { HostNotice } from '../contract/api-contract.ts';
import type { Settings } from '../contract/settings-table.ts';
import type { ApprovalAnswer, PersonApprovalGate } from '../approvals/person-approval-gate.ts';
import type { DeviceLayer } from '../devices/device-layer.ts';
import type { ApprovalPin } from '../approvals/approval-pin.ts';
import type { PendingElicitations } from '../approvals/pending-elicitations.ts';
import type { PluginParts } from '../plugins/plugin-parts.ts';
import type { ModelSelection } from '../models/model-selection.ts';
import type { SecretStore } from '../secrets/secret-store.ts';
import type { PluginStateStore } from '../store/plugin-state-store.ts';
import type { SettingsStore } from '../store/settings-store.ts';
import type { StandingApprovalStore } from '../store/standing-approval-store.ts';
import type { SqliteConversationStore } from '../store/sqlite-conversation-store.ts';

/**
 * The front end a host serves: a window (`electron`, `web`), the terminal (`cli`), or programs that
 * call its tools over stdio (`tool-server`). Only a window follows other processes' questions, and
 * only the terminal is told what to fix in a terminal's words.
 */
export type HostTransport = 'electron' | 'web' | 'cli' | 'tool-server';

/** The parts of a running host the API handlers work on (built by the composition root). */
export interface HostParts {
  agent: Agent;
  approvals: PersonApprovalGate;
  /** Questions other processes on the data folder wait on: an answer given here is written to the store for them. */
  pendingApprovals?: { answer(answer: ApprovalAnswer): boolean; needsPin?(approvalId: string): boolean };
  /** Plugins' questions to the person during a call (elicitation), answered only at a front end. */
  elicitations: PendingElicitations;
  /** The approval PIN of this data folder: whether it is set, its checks and which device actions need it. */
  approvalPin: ApprovalPin;
  /** "Always allow" answers of this data folder. */
  standingApprovals: StandingApprovalStore;
  notices: Emitter<HostNotice>;
  store: SqliteConversationStore;
  settingsStore: SettingsStore;
  pluginState: PluginStateStore;
  plugins: PluginRegistry;
  /** The settings the next turn uses: this run's overrides over the stored ones. */
  settings: () => Settings;
  /** This run's own settings (flags, environment): they win over the stored ones. */
  runSettings: Settings;
  /** The model of the next turn, chosen from the settings when it starts. */
  models: ModelSelection;
  /** What is known of the models' context windows. */
  context: ContextKeeper;
  devices: DeviceLayer | undefined;
  /** The built-in plugins that run something: their status, trust and problems for the Plugins tab. */
  pluginParts: PluginParts;
  secrets: SecretStore | undefined;
  transport: HostTransport;
  dataDir: string;
  version: string;
  log: (line: string) => void;
}
