import type { AuthorizationContext, ToolDeclaration, ToolDefinition } from './tool-definition.ts';
import { declarationOf } from './tool-definition.ts';
import { authorizeToolCall } from './authorize-tool-call.ts';
import type { ToolError } from './tool-error.ts';
import { toolNotFound } from './not-found.ts';
import type { ToolOutcome } from './tool-result.ts';
import { runToolCall, type ToolCallPipeline } from '../batch/run-tool-call.ts';

/** How plugins (sequences, MCP bridges) reach tools: the same gate and pipeline as the batch path. */
export interface ToolApi {
  /** Every enabled tool's declaration, parallelSafe/serial included. */
  list(): ToolDeclaration[];
  byName(name: string): ToolDeclaration | undefined;
  /** The CanUse gate, exactly as the batch path applies it. Null means allowed. */
  canUse(context: AuthorizationContext, name: string, args: Record<string, unknown>): Promise<ToolError | null>;
  call(
    context: AuthorizationContext & { signal: AbortSignal; turnId?: string },
    name: string,
    args: Record<string, unknown>,
  ): Promise<ToolOutcome>;
}

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
    call: async (context, name, args) => {
      const callId = newId();
      const tool = find(name);
      const withheld = tool === undefined ? options.withheld?.(name) : undefined;
      const run = await runToolCall({
        pipeline: { defaultTimeoutMs: 30_000, ...options.pipeline },
        call: { index: 0, callId, name, args, tool, ...(withheld ? { withheld } : {}) },
        identity: {
          conversationId: context.conversationId,
          turnId: context.turnId ?? '',
          batchId: `toolapi-${callId}`,
          callId,
          index: 0,
        },
        authorization: { conversationId: context.conversationId, caller: context.caller },
        signal: context.signal,
      });
      return run.outcome;
    },
  };
}
