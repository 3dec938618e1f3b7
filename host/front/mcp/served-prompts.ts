import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  McpError,
  ErrorCode,
  type CompleteResult,
} from '@modelcontextprotocol/sdk/types.js';
import { safeText } from '../../../core/text/safe-text.ts';
import type { AuthorizationContext } from '../../../core/tools/tool-definition.ts';
import type { ToolApi } from '../../../core/tools/tool-api.ts';
import type { DeviceList } from './device-resources.ts';
import { promptMessage, sequencePrompts } from './sequence-prompts.ts';

/** The spec's bound on the values one completion answers. */
const MAX_COMPLETIONS = 100;

/** The prompts a session was shown, and how it is told they changed. */
export interface ServedPrompts {
  /**
   * Lists the prompts again and, when they differ from what the client last listed, sends
   * `notifications/prompts/list_changed` (nothing before its first listing: it has nothing to
   * refresh). Checks and listings run one after another, in the order they were asked for.
   */
  announceListChange(): Promise<void>;
}

/**
 * The saved sequences as one session's prompts (`prompts/list`, `prompts/get`), and
 * `completion/complete` of their arguments that name a device: the ids and aliases of the devices
 * the session may use that start with what was typed. Any other prompt or argument is answered
 * `{completion: {values: []}}`.
 */
export function servePrompts(
  server: Server,
  home: { toolApi: ToolApi; handlers: DeviceList },
  context: () => AuthorizationContext,
): ServedPrompts {
  let listed: string | undefined;
  // Listings and checks run one after another: a check never compares with a listing older than
  // its own, and a listing answers only after the announcements of the changes before it were sent.
  let queue = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const done = queue.then(work);
    queue = done.then(
      () => undefined,
      () => undefined,
    );
    return done;
  };
  const promptsNow = async () => (await sequencePrompts(home.toolApi, context())).map((entry) => entry.prompt);
  server.setRequestHandler(ListPromptsRequestSchema, () =>
    inTurn(async () => {
      const prompts = await promptsNow();
      listed = JSON.stringify(prompts);
      return { prompts };
    }),
  );
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const { name } = request.params;
    const found = (await sequencePrompts(home.toolApi, context())).find((entry) => entry.prompt.name === name);
    if (!found)
      throw new McpError(ErrorCode.InvalidParams, `No prompt named ${safeText(name.slice(0, 100))}: list the prompts.`);
    const known = new Set(found.prompt.arguments?.map((argument) => argument.name));
    const input = Object.fromEntries(
      Object.entries(request.params.arguments ?? {}).filter(([key, value]) => known.has(key) && value !== ''),
    );
    return {
      description: found.prompt.description,
      messages: [{ role: 'user', content: { type: 'text', text: promptMessage(name, input) } }],
    };
  });
  server.setRequestHandler(CompleteRequestSchema, async (request): Promise<CompleteResult> => {
    const none = { completion: { values: [] } };
    const { ref, argument } = request.params;
    if (ref.type !== 'ref/prompt') return none;
    const found = (await sequencePrompts(home.toolApi, context())).find((entry) => entry.prompt.name === ref.name);
    if (!found?.deviceArguments.has(argument.name)) return none;
    const typed = argument.value.toLowerCase();
    const names = (await usableDevices(home, context())).filter((name) => name.toLowerCase().startsWith(typed));
    return {
      completion: {
        values: names.slice(0, MAX_COMPLETIONS),
        total: names.length,
        hasMore: names.length > MAX_COMPLETIONS,
      },
    };
  });
  return {
    announceListChange: () =>
      inTurn(async () => {
        if (listed === undefined) return;
        const now = JSON.stringify(await promptsNow());
        if (now === listed) return;
        listed = now;
        // A client that went away meanwhile cannot be told; it lists again when it comes back.
        await server.sendPromptListChanged().catch(() => undefined);
      }),
  };
}

/** The ids and aliases (text rule applied) of the devices attached now that the CanUse gate lets the session use one of its kind's tools on. */
async function usableDevices(
  home: { toolApi: ToolApi; handlers: DeviceList },
  context: AuthorizationContext,
): Promise<string[]> {
  const names = new Set<string>();
  const tools = home.toolApi.list();
  for (const device of (await home.handlers['devices/list']({})).devices) {
    if (device.status === 'left-out' || device.trusted === false) continue;
    for (const tool of tools.filter((item) => item.name.startsWith(`${device.kind}__`))) {
      if ((await home.toolApi.canUse(context, tool.name, { device_id: device.id })) !== null) continue;
      names.add(safeText(device.id));
      names.add(safeText(device.alias));
      break;
    }
  }
  return [...names];
}
