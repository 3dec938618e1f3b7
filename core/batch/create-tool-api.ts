import type { ToolDefinition } from '../tools/tool-definition.ts';
import { declarationOf } from '../tools/tool-definition.ts';
import { authorizeToolCall } from '../tools/authorize-tool-call.ts';
import type { ToolError } from '../tools/tool-error.ts';
import { toolNotFound } from '../tools/not-found.ts';
import { DEFAULT_TOOL_TIMEOUT_MS } from '../tools/tool-timeout.ts';
import type { ToolApi } from '../tools/tool-api.ts';
import { runToolCall, type ToolCallPipeline } from './run-tool-call.ts';

/** Builds the ToolAPI over a live tool source (the enabled plugins' tools). */
export function createToolApi(options: {
  tools: () => ToolDefinition[];
  pipeline?: Partial<ToolCallPipeline>;
  newId?: () => string;
  /** Why a tool that is not offered is withheld (answered instead of not-found; see `Plugin.withheld`). */
  withheld?: (name: string) => ToolError | undefined;
}): ToolApi {
  const find = (name: string): ToolDefinition | undefined => options.tools().find((tool) => tool.name === name);
  const newId = options.newId ?? (() => crypto.randomUUID());
  const run: ToolApi['run'] = async (context, name, args) => {
    const callId = context.callId ?? newId();
    const batchId = context.batchId ?? `toolapi-${callId}`;
    const found = find(name);
    const tool = found && context.onLeave ? toldWhenItLeaves(found, context.onLeave) : found;
    const withheld = tool === undefined ? options.withheld?.(name) : undefined;
    const ran = await runToolCall({
      pipeline: { defaultTimeoutMs: DEFAULT_TOOL_TIMEOUT_MS, ...options.pipeline },
      call: { index: 0, callId, name, args, tool, ...(withheld ? { withheld } : {}) },
      identity: { conversationId: context.conversationId, turnId: context.turnId ?? '', batchId, callId, index: 0 },
      authorization: { conversationId: context.conversationId, caller: context.caller },
      signal: context.signal,
    });
    return { ...ran, callId, batchId };
  };
  return {
    list: () => options.tools().map(declarationOf),
    byName: (name) => {
      const tool = find(name);
      return tool ? declarationOf(tool) : undefined;
    },
    canUse: async (context, name, args) => {
      const tool = find(name);
      if (!tool) return options.withheld?.(name) ?? toolNotFound(name);
      return authorizeToolCall({ context, tool, args });
    },
    call: async (context, name, args) => (await run(context, name, args)).outcome,
    run,
  };
}

/** The tool with `onLeave` told when a call of it may have acted: at its request's delivery, or when its handler starts. */
function toldWhenItLeaves(tool: ToolDefinition, onLeave: () => void): ToolDefinition {
  return {
    ...tool,
    handler: (args, context) => {
      if (tool.reportsDelivery !== true) onLeave();
      return tool.handler(
        args,
        tool.reportsDelivery === true
          ? {
              ...context,
              markSent: () => {
                context.markSent();
                onLeave();
              },
            }
          : context,
      );
    },
  };
}
