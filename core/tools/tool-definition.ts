import type { JsonSchema } from './json-schema.ts';
import type { ToolError } from './tool-error.ts';

/** Media attached to a tool result (an image from a camera, say); it follows its own tool message. */
export interface ToolMedia {
  mimeType: string;
  /** Base64 data. */
  data: string;
}

/** What every tool call sees: its own object per call, nothing mutable shared within a batch. */
export interface ToolCallContext {
  readonly conversationId: string;
  readonly turnId: string;
  readonly batchId: string;
  readonly callId: string;
  readonly index: number;
  readonly toolName: string;
  /** Aborted on the user's abort or the call's timeout. */
  readonly signal: AbortSignal;
  /** Attach media to this call's result. */
  attachMedia(media: ToolMedia): void;
  /** Free per-call scratch space (e.g. the output channel a call wrote to). */
  readonly extra: Record<string, unknown>;
}

/** The context the CanUse gate sees (a subset of ToolCallContext; also built by the ToolAPI). */
export interface AuthorizationContext {
  readonly conversationId: string;
  /** Who is calling: the agent's batch path, or a plugin through the ToolAPI (e.g. 'sequences'). */
  readonly caller: string;
}

/**
 * A tool as plugins declare it. `parallelSafe` (default false) lets a batch run concurrently;
 * `serial` (default false) wins over everything and forces the whole batch serial.
 */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: JsonSchema;
  parallelSafe?: boolean;
  serial?: boolean;
  /** The output channel this tool sends to; two sends to one channel in a batch force serial order. */
  outputChannel?: string;
  /** Per-call timeout in ms (the kernel's default applies when absent). */
  timeoutMs?: number;
  /** Whether the person is asked before this tool runs (the approval gate). */
  needsApproval?: boolean;
  /**
   * The tool's own part of the CanUse gate (e.g. device grants). Return a ToolError to refuse.
   * Called by the one authorisation function that both the batch path and the ToolAPI use.
   */
  canUse?: (
    context: AuthorizationContext,
    args: Record<string, unknown>,
  ) => ToolError | null | Promise<ToolError | null>;
  handler: (args: Record<string, unknown>, context: ToolCallContext) => unknown;
}

/** The declaration of a tool without its functions, as listed to plugins, prompts and front ends. */
export interface ToolDeclaration {
  name: string;
  description: string;
  parameters: JsonSchema;
  parallelSafe: boolean;
  serial: boolean;
  outputChannel?: string;
}

/** The declaration of a tool, with defaults filled in. */
export function declarationOf(tool: ToolDefinition): ToolDeclaration {
  const declaration: ToolDeclaration = {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    parallelSafe: tool.parallelSafe === true,
    serial: tool.serial === true,
  };
  if (tool.outputChannel !== undefined) declaration.outputChannel = tool.outputChannel;
  return declaration;
}
