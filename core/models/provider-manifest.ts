import type { ModelAdapterOptions } from './adapter-options.ts';
import type { ModelAdapter } from './model-adapter.ts';
import type { ModelInfo } from './model-info.ts';
import type { ProviderServer } from './provider-server.ts';
import type { ProviderSetting } from './provider-setting.ts';

/** One example a command's help gives: the command line, and what it does. */
export interface HelpExample {
  command: string;
  text: string;
}

/** A server that speaks another provider's wire format too (named in that provider's hints and advice). */
export interface CompatibleServer {
  /** How people call it (`LM Studio`). */
  name: string;
  /** Where it answers that format on its own machine. */
  baseUrl: string;
  /** Models of it that take tools, for the advice after a refusal of tools. */
  toolModels: string;
}

/** What asking a server for a model's context window needs. */
export interface WindowLookup {
  baseUrl: string;
  model: string;
  headers: Record<string, string>;
  signal: AbortSignal;
}

/**
 * What Home Agent knows of one wire format's servers, declared in that provider's own folder and
 * listed in core/models/provider-manifests.ts: its server, adapter, model list, windows and help.
 */
export interface ProviderManifest extends ProviderServer {
  /** How people call it in a sentence (`Ollama`). */
  displayName: string;
  /** What the Settings form shows in an empty field while this provider is chosen. */
  placeholders: { baseUrl: string; model: string; apiKeyEnv: string };
  /** Where docs/providers.md speaks of its servers: the section a person should read. */
  docsSection: string;
  /** The adapter for a model at one of its servers. */
  createAdapter(options: ModelAdapterOptions): ModelAdapter;
  /** How its servers list their models: the address asked, and the models read from the reply. */
  listModels: { url(baseUrl: string): string; parse(text: string): ModelInfo[] };
  /** Asks a server for a model's context window (never throws); absent: its servers are not asked. */
  lookupWindow?(lookup: WindowLookup): Promise<number | undefined>;
  /** The windows its maker documents, in tokens, by model-name prefix. */
  documentedWindows?: Readonly<Record<string, number>>;
  /** Its server as another format's compatible server (its address for that format, models with tools). */
  alsoSpeaks?: CompatibleServer;
  /** Asked when no provider is chosen: does one of its servers answer here? */
  probe?: { answers(baseUrl: string, signal?: AbortSignal): Promise<boolean>; skipVariable: string };
  /** What its servers' users run first: a model to pull, said when one answers with none. */
  firstModelHint?: string;
  /** Its examples in `models --help` and `ask --help`. */
  examples?: { models?: HelpExample; ask?: HelpExample };
  /** Its own settings rows (the settings table's shape), spread into the table after `contextTokens`. */
  settings?: Readonly<Record<string, ProviderSetting>>;
}

/** A model that needs no server (the demo planner, a scripted replay): what the front ends say of it. */
export interface LocalModelManifest {
  /** Its adapter, where it needs nothing but itself (a scripted replay needs its file: the host reads it). */
  create?(): ModelAdapter;
  /** What "Test connection" answers while it is chosen. */
  testMessage: string;
  /** How a notice names it (`the demo model (no AI)`). */
  described?: string;
  /** Its example in `ask --help`. */
  examples?: { ask?: HelpExample };
}
