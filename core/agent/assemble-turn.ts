import { withheldBy, type Plugin } from '../plugins/plugin.ts';
import type { ToolDefinition } from '../tools/tool-definition.ts';
import type { ToolError } from '../tools/tool-error.ts';
import { assemblePrompt, DEFAULT_PERSONA, type PromptAssembleListener } from '../prompt/assemble-prompt.ts';

/** The settings a turn reads when it starts. `toolOrder` absent means lexicographic. */
export interface AgentSettings {
  persona?: string;
  toolOrder?: string[];
  maxSteps?: number;
  toolTimeoutMs?: number;
  concurrencyCap?: number;
  /** One model reply's overall deadline, in ms. */
  replyTimeoutMs?: number;
  /** One model reply's size budget (text and arguments, UTF-8 bytes). */
  replyMaxBytes?: number;
  /** The context window to fit requests to, in tokens, over what the server or a table says. */
  contextTokens?: number;
  /** `off`: no call starts before the reply ends. Absent or `on`: complete calls start while it streams. */
  earlyToolStart?: 'on' | 'off';
  /** The providers' own settings (a per-request context length), read through the model's context info. */
  readonly [setting: string]: unknown;
}

/** The prompt and tools of one turn, fixed when the turn starts. */
export interface AssembledTurn {
  system: string;
  tools: ToolDefinition[];
  byName: Map<string, ToolDefinition>;
  /** Why a plugin of the turn withholds a tool it does not offer now (see `Plugin.withheld`). */
  withheld?: (name: string) => ToolError | undefined;
}

/** Assembles the turn's prompt; a bad `toolOrder` becomes the turn's error message instead of a throw. */
export function assembleTurn(options: {
  plugins: readonly Plugin[];
  /** The plugins the person turned off (named in the prompt). */
  disabled?: readonly Plugin[];
  settings: AgentSettings;
  listeners?: readonly PromptAssembleListener[];
}): { ok: true; value: AssembledTurn } | { ok: false; error: string } {
  try {
    const { system, tools } = assemblePrompt({
      plugins: options.plugins,
      ...(options.disabled ? { disabled: options.disabled } : {}),
      persona: options.settings.persona ?? DEFAULT_PERSONA,
      ...(options.settings.toolOrder !== undefined ? { toolOrder: options.settings.toolOrder } : {}),
      ...(options.listeners ? { listeners: options.listeners } : {}),
    });
    const withheld = (name: string): ToolError | undefined => withheldBy(options.plugins, name);
    return {
      ok: true,
      value: { system, tools, byName: new Map(tools.map((tool) => [tool.name, tool])), withheld },
    };
  } catch (error) {
    return { ok: false, error: `prompt assembly failed: ${(error as Error).message}` };
  }
}
