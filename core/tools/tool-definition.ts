import type { JsonSchema } from './json-schema.ts';
import type { ToolError } from './tool-error.ts';
import type { ToolMedia } from './tool-media.ts';

export type { ToolMedia };

/** Which call this is: its conversation, turn, batch, id and declared index. */
export interface CallIdentity {
  readonly conversationId: string;
  readonly turnId: string;
  readonly batchId: string;
  readonly callId: string;
  readonly index: number;
}

/** How far a running call got: `progress` rises, `total` when known, `message` in the tool's words. */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** What every tool call sees: its own object per call, nothing mutable shared within a batch. */
export interface ToolCallContext extends CallIdentity {
  readonly toolName: string;
  /** Aborted on the user's abort or the call's timeout. */
  readonly signal: AbortSignal;
  /** Attach media to this call's result. */
  attachMedia(media: ToolMedia): void;
  /** A channel tool reports the text it put on its channel; the batch announces it in declared order. */
  reportOutput(text: string): void;
  /**
   * The request has left the host (written to the device): from now on an interrupted call may
   * have acted. Only meaningful for tools that declare `reportsDelivery`.
   */
  markSent(): void;
  /**
   * The tool says how far it got (a server's progress notifications): shown live on the call's row,
   * at most a few a second, never journaled. Absent where nobody shows it (the ToolAPI's calls).
   */
  reportProgress?(update: ToolProgress): void;
  /**
   * Stops the call's timeout while a person is asked something during it (a server's question): the
   * function it returns gives the time back, and the timeout restarts in full once nothing holds it.
   */
  holdTimeout?(): () => void;
  /** Free per-call scratch space. */
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
   * The tool only reads: a call changes nothing in the home (a lamp's `get`, a sensor's `read`).
   * Served to MCP clients as `readOnlyHint`; absent means it may change something.
   */
  readOnly?: boolean;
  /**
   * The handler calls `context.markSent()` when its request leaves the host. Then a call
   * interrupted before that is known `not_sent`; without it, any interrupted call is `unknown`.
   */
  reportsDelivery?: boolean;
  /**
   * Why this tool may not run inside a sequence, whatever its name (an MCP tool of a server the
   * person has not trusted, or that does not declare it read-only); absent: the name rules decide.
   */
  sequenceRefusal?: string;
  /**
   * Why `serial` is set, in words for the batch's reason after `serial: ` (an MCP tool: its server
   * is not trusted); absent: `NAME declares serial`.
   */
  serialReason?: string;
  /**
   * What a call of this tool reaches, in words (`the MCP server mcp-x`): a call's outcome and the
   * model's note name it; absent: the device.
   */
  reaches?: string;
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
  /** It only reads (default false). */
  readOnly: boolean;
  /** The person is asked before it runs, unless a standing approval covers the call (default false). */
  needsApproval: boolean;
  outputChannel?: string;
  sequenceRefusal?: string;
}

/** The declaration of a tool, with defaults filled in. */
export function declarationOf(tool: ToolDefinition): ToolDeclaration {
  const declaration: ToolDeclaration = {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    parallelSafe: tool.parallelSafe === true,
    serial: tool.serial === true,
    readOnly: tool.readOnly === true,
    needsApproval: tool.needsApproval === true,
  };
  if (tool.outputChannel !== undefined) declaration.outputChannel = tool.outputChannel;
  if (tool.sequenceRefusal !== undefined) declaration.sequenceRefusal = tool.sequenceRefusal;
  return declaration;
}
