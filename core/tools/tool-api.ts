import type { AuthorizationContext, ToolDeclaration, ToolDefinition } from './tool-definition.ts';
import { declarationOf } from './tool-definition.ts';
import { authorizeToolCall } from './authorize-tool-call.ts';
import type { ToolError } from './tool-error.ts';
import { toolNotFound } from './not-found.ts';
import type { ToolOutcome } from './tool-result.ts';
import { runToolCall, type ToolCallPipeline, type ToolCallRun } from '../batch/run-tool-call.ts';

/**
 * Who calls through the ToolAPI, in which conversation and turn, and the signal that stops the call;
 * `onLeave` is told once the call may have acted (its handler started, or, for a tool that reports
 * delivery, its request left), so a caller that runs calls for its own tool (a sequence) knows too.
 */
export type ToolApiCallContext = AuthorizationContext & { signal: AbortSignal; turnId?: string; onLeave?: () => void };

/** A call's own ids, given by a caller that journals the call itself (a fresh id when absent). */
export interface ToolApiCallIds {
  callId?: string;
  batchId?: string;
}

/** How plugins (sequences, MCP bridges) reach tools: the same gate and pipeline as the batch path. */
export interface ToolApi {
  /** Every enabled tool's declaration, parallelSafe/serial included. */
  list(): ToolDeclaration[];
  byName(name: string): ToolDeclaration | undefined;
  /** The CanUse gate, exactly as the batch path applies it. Null means allowed. */
  canUse(context: AuthorizationContext, name: string, args: Record<string, unknown>): Promise<ToolError | null>;
  call(context: ToolApiCallContext, name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  /**
   * Like `call`, under ids the caller chose, answering everything known of how the call ended (its
   * outcome, what is known of its effect, media, channel output, the approval wait): for a caller
   * that journals each call as its own turn (the MCP server).
   */
  run(
    context: ToolApiCallContext & ToolApiCallIds,
    name: string,
    args: Record<string, unknown>,
  ): Promise<ToolCallRun & { callId: string; batchId: string }>;
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
  const run: ToolApi['run'] = async (context, name, args) => {
    const callId = context.callId ?? newId();
    const batchId = context.batchId ?? `toolapi-${callId}`;
    const found = find(name);
    const tool = found && context.onLeave ? toldWhenItLeaves(found, context.onLeave) : found;
    const withheld = tool === undefined ? options.withheld?.(name) : undefined;
    const ran = await runToolCall({
      pipeline: { defaultTimeoutMs: 30_000, ...options.pipeline },
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
