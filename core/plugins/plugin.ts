import type { ToolDefinition } from '../tools/tool-definition.ts';
import type { ToolError } from '../tools/tool-error.ts';

/** A titled block of the system prompt; sections are assembled in ascending `order`. */
export interface PromptSection {
  id: string;
  order: number;
  text: string;
}

/**
 * A plugin owns tools, prompt sections and channels. `tools()` is read at every turn's prompt
 * assembly, so tools that appear (a device plugged in) are picked up between turns.
 */
export interface Plugin {
  readonly name: string;
  readonly description: string;
  tools(): ToolDefinition[];
  promptSections?(): PromptSection[];
  /**
   * Why a tool of this plugin that it does not offer now may not be called (a device action no
   * device is granted): the call is refused with this error instead of `not_found`. Undefined when
   * the name is none of this plugin's.
   */
  withheld?(name: string): ToolError | undefined;
  dispose?(): void | Promise<void>;
}

/** Why one of `plugins` withholds a tool of this name, if one does (the first that does). */
export function withheldBy(plugins: readonly Plugin[], name: string): ToolError | undefined {
  for (const plugin of plugins) {
    const refusal = plugin.withheld?.(name);
    if (refusal) return refusal;
  }
  return undefined;
}
