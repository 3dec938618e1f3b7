import type { AgentEvent, AgentEventInput } from '../events/agent-event.ts';
import type { ToolDefinition } from '../tools/tool-definition.ts';
import { runToolCall, type AfterToolHook } from '../batch/run-tool-call.ts';
import { deadlineSignal } from '../text/deadline-signal.ts';

/** A call of the turn whose request may have reached its device and whose answer never came. */
export interface UnknownCall {
  callId: string;
  name: string;
  args: Record<string, unknown>;
}

/**
 * Watches a turn's events for calls that ended `unknown`, keeping each with the arguments its
 * `batch/start` declared, or its early `tool/start` carried (the `tool/end` does not repeat them).
 */
export class UnknownCallTracker {
  private readonly declared = new Map<string, UnknownCall>();
  private readonly unknown: UnknownCall[] = [];

  observe(event: AgentEventInput): void {
    if (event.type === 'batch/start') {
      for (const call of event.calls)
        this.declared.set(call.callId, { callId: call.callId, name: call.name, args: call.args });
    } else if (event.type === 'tool/start' && event.args !== undefined) {
      // A call started while the reply streamed carries its arguments: no batch/start may ever declare it.
      this.declared.set(event.callId, { callId: event.callId, name: event.name, args: event.args });
    } else if (event.type === 'tool/end' && event.outcome === 'unknown') {
      this.unknown.push(this.declared.get(event.callId) ?? { callId: event.callId, name: event.name, args: {} });
    }
  }

  get calls(): readonly UnknownCall[] {
    return this.unknown;
  }
}

/** The read actions tried, in this order, for a device kind: `<kind>__get`, then `<kind>__read`. */
const READ_ACTIONS = ['get', 'read'] as const;

/**
 * Which device an unknown call addressed, and the read action that can say its state now. Device
 * tools are named `<kind>__<action>` and take `device_id`; the read action is one of the turn's
 * tools (so only a granted one), never the same action, never one that would ask the person.
 */
function readerFor(call: UnknownCall, tools: ReadonlyMap<string, ToolDefinition>): ToolDefinition | undefined {
  const separator = call.name.lastIndexOf('__');
  if (separator <= 0 || typeof call.args.device_id !== 'string') return undefined;
  const kind = call.name.slice(0, separator);
  for (const action of READ_ACTIONS) {
    const tool = tools.get(`${kind}__${action}`);
    if (tool && tool.name !== call.name && tool.needsApproval !== true) return tool;
  }
  return undefined;
}

/**
 * After a Stop, reads again every device a call may have acted on (its outcome `unknown`), each
 * through the kernel's own pipeline — look-up, the CanUse gate, validation, the handler — with its
 * own deadline (the turn's signal is already aborted), and emits one `device/state` per device (per
 * part of it, such as a relay channel). The person is not asked: a read action that needs approval
 * is left out. Devices are read concurrently; the events follow the order of the first unknown call.
 */
export async function readBackAfterStop(options: {
  calls: readonly UnknownCall[];
  tools: ReadonlyMap<string, ToolDefinition>;
  identity: { conversationId: string; turnId: string };
  emit: (event: AgentEventInput) => void;
  newId: () => string;
  timeoutMs: number;
  afterTool?: readonly AfterToolHook[];
}): Promise<void> {
  // One read per device and part of it (a relay's channel): the same read serves every call it covers.
  const reads = new Map<
    string,
    { deviceId: string; reader: ToolDefinition; args: Record<string, unknown>; callIds: string[] }
  >();
  for (const call of options.calls) {
    const reader = readerFor(call, options.tools);
    if (!reader) continue;
    const deviceId = call.args.device_id as string;
    const args = readArguments(reader, call.args);
    const key = JSON.stringify([deviceId, reader.name, args]);
    const entry = reads.get(key) ?? { deviceId, reader, args, callIds: [] };
    entry.callIds.push(call.callId);
    reads.set(key, entry);
  }
  if (reads.size === 0) return;
  const signal = deadlineSignal(options.timeoutMs);
  const batchId = `read-back-${options.newId()}`;
  const found = await Promise.all(
    [...reads.values()].map(async ({ deviceId, reader, args, callIds }, position) => {
      const callId = options.newId();
      const run = await runToolCall({
        pipeline: {
          defaultTimeoutMs: options.timeoutMs,
          ...(options.afterTool ? { afterTool: options.afterTool } : {}),
        },
        call: { index: position, callId, name: reader.name, args: { device_id: deviceId, ...args }, tool: reader },
        identity: { ...options.identity, batchId, callId, index: position },
        authorization: { conversationId: options.identity.conversationId, caller: 'agent' },
        signal,
      });
      const state: Omit<Extract<AgentEvent, { type: 'device/state' }>, 'at' | 'conversationId' | 'turnId'> = {
        type: 'device/state',
        deviceId,
        tool: reader.name,
        callIds,
        ...(Object.keys(args).length > 0 ? { args } : {}),
      };
      return run.outcome.ok
        ? { ...state, result: deviceResult(run.outcome.value, deviceId) }
        : { ...state, error: run.outcome.error };
    }),
  );
  for (const event of found) options.emit(event);
}

/**
 * The arguments of the read besides `device_id`: those of the unknown call that the read action
 * also takes (a relay's `channel`), so it reads the part of the device the call addressed.
 */
function readArguments(reader: ToolDefinition, callArgs: Record<string, unknown>): Record<string, unknown> {
  const accepted = Object.keys(reader.parameters.properties ?? {}).filter((name) => name !== 'device_id');
  return Object.fromEntries(accepted.filter((name) => name in callArgs).map((name) => [name, callArgs[name]]));
}

/** A device tool answers `{ device_id, result }`: the state is its `result`; anything else is kept whole. */
function deviceResult(value: unknown, deviceId: string): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  return record.device_id === deviceId && 'result' in record ? record.result : value;
}
