import type { BatchMode } from '../events/agent-event.ts';
import type { ToolDefinition } from '../tools/tool-definition.ts';
import { OUTPUT_SEND_PREFIX } from '../tools/output-send-prefix.ts';

/** The scheduler's decision for one batch, with the reason recorded beside it. */
export interface BatchPlan {
  mode: BatchMode;
  reason: string;
}

/** The output channel a tool sends to: declared, or implied by the `output_send__<channel>` name. */
export function outputChannelOf(tool: Pick<ToolDefinition, 'name' | 'outputChannel'>): string | undefined {
  if (tool.outputChannel !== undefined) return tool.outputChannel;
  return tool.name.startsWith(OUTPUT_SEND_PREFIX) ? tool.name.slice(OUTPUT_SEND_PREFIX.length) : undefined;
}

/**
 * The scheduler's rule (seeds 001 §2d, 002): a batch runs concurrently only if it has more than
 * one call, every call's tool is `parallelSafe` and not `serial`, and no two calls send to the same
 * output channel; otherwise the whole batch runs serially in index order. An unknown tool needs no
 * declaration: its call ends `not_found` at once.
 */
export function decideBatchMode(calls: readonly { name: string; tool: ToolDefinition | undefined }[]): BatchPlan {
  if (calls.length <= 1) return { mode: 'serial', reason: 'serial: a single call' };
  for (const call of calls) {
    if (call.tool?.serial)
      return { mode: 'serial', reason: `serial: ${call.tool.serialReason ?? `${call.name} declares serial`}` };
  }
  for (const call of calls) {
    if (call.tool && !call.tool.parallelSafe)
      return { mode: 'serial', reason: `serial: ${call.name} is not declared parallel-safe` };
  }
  const channels = new Set<string>();
  for (const call of calls) {
    const channel = call.tool ? outputChannelOf(call.tool) : undefined;
    if (channel === undefined) continue;
    if (channels.has(channel))
      return { mode: 'serial', reason: `serial: two sends to the output channel ${channel} keep their order` };
    channels.add(channel);
  }
  return { mode: 'parallel', reason: `parallel: all ${calls.length} calls are parallel-safe` };
}
