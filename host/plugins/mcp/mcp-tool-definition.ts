import type { ToolDefinition } from '../../../core/tools/tool-definition.ts';
import { ToolError } from '../../../core/tools/tool-error.ts';
import type { McpConnection } from './mcp-connection.ts';
import type { McpToolDeclaration } from './declare-mcp-tools.ts';
import { mapToolResult } from './map-tool-result.ts';

/** How far the person trusts one tool right now. */
export interface McpToolTrust {
  /** The person trusts the server (as it is configured now). */
  server: boolean;
  /** …and this tool's declaration is the one they trusted, and it says `readOnlyHint: true`. */
  vetted: boolean;
}

/**
 * A server's tool as the kernel runs it. Untrusted server: always asks, and `serial` (its hints are
 * not believed). Trusted server: a tool whose trusted declaration says `readOnlyHint: true` is
 * parallel-safe and runs unasked; any other keeps asking. Sequences refuse it unless vetted (a
 * declaration, not a name rule). A vetted tool that lost trust after the turn took its snapshot is
 * refused by its CanUse gate, so it never runs unasked on trust it no longer has. The handler
 * reports delivery: an interrupted call is `unknown` only once its request left.
 */
export function mcpToolDefinition(options: {
  plugin: string;
  declaration: McpToolDeclaration;
  connection: McpConnection;
  trust: McpToolTrust;
  /** The trust as it is at the moment of a call (read from the store). */
  trustNow: () => McpToolTrust;
  maxResultBytes: () => number;
}): ToolDefinition {
  const { declaration, plugin, trust } = options;
  // A server that failed or was stopped cannot take the call: refused before anyone is asked about it.
  const notConnected = (): ToolError | null => {
    const { status, reason } = options.connection;
    if (status !== 'failed' && status !== 'stopped') return null;
    return new ToolError({
      reason: 'device_offline',
      detail: `the MCP server ${plugin} is not connected${reason !== undefined ? ` (${reason})` : ''}: nothing was sent to it, so ${declaration.name} did not run`,
      hint: 'Tell the person the server is down; nobody was asked and nothing was done. Try again once it is connected.',
    });
  };
  return {
    name: declaration.name,
    description: declaration.description,
    parameters: declaration.parameters,
    parallelSafe: trust.vetted,
    serial: !trust.server,
    // Its outcome and the batch's reason in the words of MCP, not of devices.
    reaches: `the MCP server ${plugin}`,
    ...(trust.server
      ? {}
      : {
          serialReason: `${declaration.name} is a tool of an MCP server you have not trusted (${plugin}), so the calls run one at a time`,
        }),
    needsApproval: !trust.vetted,
    reportsDelivery: true,
    ...(trust.vetted
      ? {
          canUse: () =>
            notConnected() ??
            (options.trustNow().vetted
              ? null
              : new ToolError({
                  reason: 'denied',
                  detail: `${declaration.name} is no longer trusted (its declaration changed, or the person stopped trusting ${plugin}) since this turn began, so it does not run unasked`,
                  hint: 'It asks the person from the next turn; tell them what you wanted to do.',
                })),
        }
      : {
          canUse: notConnected,
          sequenceRefusal: trust.server
            ? `its MCP server ${plugin} does not declare it read-only`
            : `its MCP server ${plugin} is not trusted`,
        }),
    handler: async (args, context) => {
      const result = await options.connection.call({
        tool: declaration.original,
        args,
        signal: context.signal,
        onSent: () => context.markSent(),
        ...(context.reportProgress ? { onProgress: context.reportProgress } : {}),
        ...(context.holdTimeout ? { holdTimeout: context.holdTimeout } : {}),
      });
      return mapToolResult({
        result: options.connection.redactResult(result),
        name: declaration.name,
        maxBytes: options.maxResultBytes(),
        maxBytesSetting: 'mcpMaxResultBytes',
        attachMedia: (media) => context.attachMedia(media),
      });
    },
  };
}
