import { ToolError } from './tool-error.ts';
import { OUTPUT_SEND_PREFIX } from './output-send-prefix.ts';

/**
 * The typed not-found error. Its hint tells the model how to recover (list tools, list channels)
 * instead of inviting a retry of the same name.
 */
export function toolNotFound(name: string): ToolError {
  const channel = name.startsWith(OUTPUT_SEND_PREFIX);
  return new ToolError({
    reason: 'not_found',
    detail: `There is no tool named '${name}'.`,
    hint: channel
      ? 'Call output_list_channels to see the channels that exist, then send to one of those.'
      : 'Call system_list_tools to see the tools that exist; do not retry this name.',
  });
}
