import type { Plugin, PromptSection } from '../plugins/plugin.ts';
import type { ToolDefinition } from '../tools/tool-definition.ts';
import { orderTools } from '../tools/order-tools.ts';
import { compareCodeUnits } from '../tools/order-tools.ts';
import { toolExecutionSection } from './tool-execution-section.ts';
import { assertUniqueToolNames } from './assert-unique-tool-names.ts';
import { safeToolText } from './safe-tool-text.ts';
import { safeLines } from '../text/safe-text.ts';
import { disabledPluginsSection } from './disabled-plugins-section.ts';

/** What prompt assembly produces; the `system-prompt/assemble` listeners receive and return it. */
export interface PromptAssembly {
  sections: PromptSection[];
  tools: ToolDefinition[];
}

/**
 * A `system-prompt/assemble` waterfall listener. It starts from the authoritative tool order and may
 * add, remove or reorder; it owns the determinism of what it returns.
 */
export type PromptAssembleListener = (assembly: PromptAssembly) => PromptAssembly;

/**
 * Assembles the system prompt and the tool list for one turn: the sections of every enabled plugin
 * in their order, and the tools normalised into the authoritative order *before* the waterfall.
 * Throws `ToolOrderError` when `toolOrder` names a tool no enabled plugin provides, and
 * `DuplicateToolNameError` when two tools share a name (before or after the waterfall). The prompt's
 * text and the tools' descriptions come out through the one text rule (`core/text/safe-text.ts`).
 */
export function assemblePrompt(options: {
  plugins: readonly Plugin[];
  /** The plugins the person turned off: the prompt names them (their tools are not offered). */
  disabled?: readonly Pick<Plugin, 'name' | 'description'>[];
  persona: string;
  toolOrder?: readonly string[];
  listeners?: readonly PromptAssembleListener[];
}): { system: string; tools: ToolDefinition[] } {
  const offered = options.plugins.flatMap((plugin) => plugin.tools());
  assertUniqueToolNames({ tools: offered, plugins: options.plugins, from: 'the enabled plugins' });
  const tools = orderTools(offered, options.toolOrder);
  const disabled = disabledPluginsSection(options.disabled ?? []);
  const sections: PromptSection[] = [
    { id: 'persona', order: 0, text: options.persona },
    toolExecutionSection(),
    ...options.plugins.flatMap((plugin) => plugin.promptSections?.() ?? []),
    ...(disabled ? [disabled] : []),
  ].sort((a, b) => a.order - b.order || compareCodeUnits(a.id, b.id));
  let assembly: PromptAssembly = { sections, tools };
  for (const listener of options.listeners ?? []) assembly = listener(assembly);
  assertUniqueToolNames({ tools: assembly.tools, from: 'the system-prompt/assemble listeners' });
  // Last, over whatever every plugin and listener put in: text that could act instead of being read
  // (a device's description, a name) reaches the model only as visible escapes.
  return {
    system: assembly.sections.map((section) => safeLines(section.text)).join('\n\n'),
    tools: assembly.tools.map(safeToolText),
  };
}

export const DEFAULT_PERSONA =
  'You are Home Agent, the assistant of this home. You control its devices through the tools you are given. Be brief and concrete; say what you did and what you saw.';
