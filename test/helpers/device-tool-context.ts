import type { AuthorizationContext, ToolCallContext, ToolDefinition } from '../../core/tools/tool-definition.ts';
import { ToolError } from '../../core/tools/tool-error.ts';

/** A plain per-call context for invoking a device tool directly in tests. */
export function toolCallContext(options: { toolName: string; index?: number; signal?: AbortSignal }): ToolCallContext {
  return {
    conversationId: 'conversation-test',
    turnId: 'turn-test',
    batchId: 'batch-test',
    callId: `call-${options.index ?? 0}`,
    index: options.index ?? 0,
    toolName: options.toolName,
    signal: options.signal ?? new AbortController().signal,
    attachMedia: () => undefined,
    reportOutput: () => undefined,
    markSent: () => undefined,
    extra: {},
  };
}

const authorization: AuthorizationContext = { conversationId: 'conversation-test', caller: 'agent' };

/** Runs a tool as the kernel would (its canUse gate, then its handler); returns the value or the ToolError's data. */
export async function runTool(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  options: { index?: number; signal?: AbortSignal } = {},
): Promise<{ ok: true; value: unknown } | { ok: false; reason: string; field?: string; detail?: string }> {
  try {
    const refusal = await tool.canUse?.(authorization, args);
    if (refusal) return { ok: false, reason: refusal.reason, field: refusal.field, detail: refusal.detail };
    return { ok: true, value: await tool.handler(args, toolCallContext({ toolName: tool.name, ...options })) };
  } catch (error) {
    if (ToolError.isInstance(error))
      return { ok: false, reason: error.reason, field: error.field, detail: error.detail };
    throw error;
  }
}
