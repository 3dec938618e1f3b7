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
 * What is said of one wire format's servers, data only (no adapter, no HTTP client): its server,
 * what the Settings form shows, its documented windows, help and settings rows. Declared in the
 * provider's folder (`<name>-facts.ts`), listed in core/models/provider-facts.ts; the API contract
 * and the window read these, and the window's bundle holds nothing more of a provider.
 */
export interface ProviderFacts extends ProviderServer {
  /** How people call it in a sentence (`Ollama`). */
  displayName: string;
  /** What the Settings form shows in an empty field while this provider is chosen. */
  placeholders: { baseUrl: string; model: string; apiKeyEnv: string };
  /** Where docs/providers.md speaks of its servers: the section a person should read. */
  docsSection: string;
  /** The windows its maker documents, in tokens, by model-name prefix. */
  documentedWindows?: Readonly<Record<string, number>>;
  /** Its server as another format's compatible server (its address for that format, models with tools). */
  alsoSpeaks?: CompatibleServer;
  /** What its servers' users run first: a model to pull, said when one answers with none. */
  firstModelHint?: string;
  /** Its examples in `models --help` and `ask --help`. */
  examples?: { models?: HelpExample; ask?: HelpExample };
  /** Its own settings rows (the settings table's shape), spread into the table after `contextTokens`. */
  settings?: Readonly<Record<string, ProviderSetting>>;
}

/**
 * What Home Agent knows of one wire format's servers: its facts and what talks to them (its adapter,
 * model list, window look-up, probe). Declared in the provider's own folder (`<name>-provider.ts`)
 * and listed in core/models/provider-manifests.ts.
 */
export interface ProviderManifest extends ProviderFacts {
  /** The adapter for a model at one of its servers. */
  createAdapter(options: ModelAdapterOptions): ModelAdapter;
  /** How its servers list their models: the address asked, and the models read from the reply. */
  listModels: { url(baseUrl: string): string; parse(text: string): ModelInfo[] };
  /** Asks a server for a model's context window (never throws); absent: its servers are not asked. */
  lookupWindow?(lookup: WindowLookup): Promise<number | undefined>;
  /** Asked when no provider is chosen: does one of its servers answer here? */
  probe?: { answers(baseUrl: string, signal?: AbortSignal): Promise<boolean>; skipVariable: string };
}

/** What is said of a model that needs no server, data only (see ProviderFacts). */
export interface LocalModelFacts {
  /** What "Test connection" answers while it is chosen. */
  testMessage: string;
  /** How a notice names it (`the demo model (no AI)`). */
  described?: string;
  /** Its example in `ask --help`. */
  examples?: { ask?: HelpExample };
}

/** A model that needs no server (the demo planner, a scripted replay): its facts and its adapter. */
export interface LocalModelManifest extends LocalModelFacts {
  /** Its adapter, where it needs nothing but itself (a scripted replay needs its file: the host reads it). */
  create?(): ModelAdapter;
}
