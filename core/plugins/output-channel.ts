import type { ToolCallContext } from '../tools/tool-definition.ts';

/** Every channel's send tool is this prefix and the channel's name: the channels plugin owns the whole namespace. */
export const OUTPUT_SEND_PREFIX = 'output_send__';

/** A place the agent can send output to: the chat, notifications, a device's display. */
export interface OutputChannel {
  /** Lower-case identifier used in the tool name `output_send__<name>`. */
  readonly name: string;
  readonly description: string;
  send(text: string, context: ToolCallContext): Promise<unknown> | unknown;
}
