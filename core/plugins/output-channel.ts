import type { ToolCallContext } from '../tools/tool-definition.ts';

/** A place the agent can send output to: the chat, notifications, a device's display. */
export interface OutputChannel {
  /** Lower-case identifier used in the tool name `output_send__<name>`. */
  readonly name: string;
  readonly description: string;
  send(text: string, context: ToolCallContext): Promise<unknown> | unknown;
}
