import type { AuthorizationContext, ToolDefinition } from './tool-definition.ts';
import { ToolError } from './tool-error.ts';

/**
 * The one CanUse gate. The kernel's batch path and the ToolAPI path both call this function, so
 * they can never disagree. Returns null when the call may go ahead, else the refusal.
 */
export async function authorizeToolCall(options: {
  context: AuthorizationContext;
  tool: ToolDefinition;
  args: Record<string, unknown>;
}): Promise<ToolError | null> {
  if (!options.tool.canUse) return null;
  try {
    const refusal = await options.tool.canUse(options.context, options.args);
    return refusal ?? null;
  } catch (error) {
    // A gate that fails closes: an error while deciding is a refusal, never a pass.
    return ToolError.isInstance(error)
      ? error
      : new ToolError({
          reason: 'unauthorized',
          detail: `${options.tool.name}: the permission check failed (${(error as Error).message ?? String(error)})`,
        });
  }
}
