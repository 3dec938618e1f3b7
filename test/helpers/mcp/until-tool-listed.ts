import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';

/**
 * Lists the client's tools until one named `name` is there: at once, or again after each
 * `notifications/tools/list_changed` the server sends (those since the last listing are not lost).
 * Takes over the client's handler of that notification. `firstListed` is given the names of the
 * first listing before anything is awaited again (to check them, or to let the tool come then).
 */
export async function untilToolListed(
  client: Client,
  name: string,
  firstListed: (names: string[]) => void = () => undefined,
): Promise<Tool> {
  let changes = 0;
  let wake: (() => void) | undefined;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes += 1;
    wake?.();
  });
  let seen = 0;
  let tools = (await client.listTools()).tools;
  firstListed(tools.map((tool) => tool.name));
  for (;;) {
    const tool = tools.find((each) => each.name === name);
    if (tool) return tool;
    await new Promise<void>((resolve) => (changes !== seen ? resolve() : (wake = resolve)));
    seen = changes;
    tools = (await client.listTools()).tools;
  }
}
