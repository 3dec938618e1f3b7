import type { AuthorizationContext, ToolDeclaration } from './tool-definition.ts';
import type { ToolError } from './tool-error.ts';
import type { ToolOutcome } from './tool-result.ts';
import type { ToolCallRun } from './tool-call-run.ts';

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
