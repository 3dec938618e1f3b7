import type { JsonSchema } from '../tools/json-schema.ts';
import type { ConversationMessage } from './conversation-message.ts';
import type { ModelProvider } from './provider-defaults.ts';

/** A tool as sent to the model. */
export interface ModelTool {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** Everything one model request carries. What the journal records is exactly this. */
export interface ModelRequest {
  system: string;
  messages: ConversationMessage[];
  tools: ModelTool[];
  /**
   * The context length the server should give this request, for formats that set it per request
   * (see `ModelContextInfo.contextLengthSetting`); absent: the server's own.
   */
  contextLength?: number;
}

/**
 * What an adapter says of its model's context, for the context budget (core/context): where the
 * model is (what is learned is kept per base URL and model), the reply's cap, how to ask the server
 * for the window. Absent for models that have no window (the demo planner, a scripted replay).
 */
export interface ModelContextInfo {
  provider: ModelProvider;
  baseUrl: string;
  model: string;
  /** The reply's token cap every request sends (`max_tokens`); absent when none is sent. */
  maxTokens?: number;
  /** Asks the server for the model's context length; undefined when it does not say. Never throws. */
  lookupWindow?(signal: AbortSignal): Promise<number | undefined>;
  /** The format sets the context length per request: requests carry `contextLength`, chosen by this setting. */
  contextLengthSetting?: ContextLengthSetting;
}

/**
 * The setting that chooses the context length of every request, for formats that set it per request
 * (declared in the provider's folder, with its settings row).
 */
export interface ContextLengthSetting {
  /** The setting's key (read from the turn's settings). */
  key: string;
  /** Its command-line flag, without the dashes. */
  flag: string;
  /** The length while the setting is unset. */
  default: number;
  /** What messages call the length (`the server's num_ctx`). */
  name: string;
}

/**
 * One fragment of a streamed tool call. `index` is the provider's stream index where it sends one.
 * `id`/`name` that are `''` or `null` are absent. `argumentsDelta` is raw text to append.
 * `requiresEnd`: the format marks a call's end explicitly (Anthropic `content_block_stop`); such a
 * call without its `tool-call-end` at flush is incomplete and never executed.
 */
export interface ToolCallDeltaPart {
  type: 'tool-call-delta';
  index?: number;
  id?: string | null;
  name?: string | null;
  argumentsDelta?: string;
  requiresEnd?: boolean;
}

export type ModelStreamPart =
  | { type: 'text-delta'; text: string }
  | ToolCallDeltaPart
  | { type: 'tool-call-end'; index: number }
  | { type: 'finish'; reason: FinishReason; usage?: TokenUsage };

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'other';

export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
}

/** Options each stream call receives. */
export interface ModelStreamOptions {
  signal: AbortSignal;
}

/**
 * A model behind one wire format. `stream` yields parts until the reply ends; it throws a
 * `ModelError` for anything that goes wrong (HTTP status, network, a cut stream, a bad chunk).
 */
export interface ModelAdapter {
  /** Shown in the UI and the journal, e.g. `openai:gpt-4o` or `demo`. */
  readonly label: string;
  /** True for models that are not an AI (the demo planner, the scripted model). */
  readonly scripted?: boolean;
  /** Where the model is and how to learn its window; absent: the model has no window. */
  readonly context?: ModelContextInfo;
  stream(request: ModelRequest, options: ModelStreamOptions): AsyncIterable<ModelStreamPart>;
}
