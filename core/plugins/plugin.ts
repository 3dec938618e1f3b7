import type { ToolDefinition } from '../tools/tool-definition.ts';

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
  dispose?(): void | Promise<void>;
}
