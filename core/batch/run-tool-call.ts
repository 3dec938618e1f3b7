import type { AuthorizationContext, ToolCallContext, ToolDefinition, ToolMedia } from '../tools/tool-definition.ts';
import { ToolError } from '../tools/tool-error.ts';
import { authorizeToolCall } from '../tools/authorize-tool-call.ts';
import { validateArguments } from '../tools/validate-arguments.ts';
import { normaliseToolOutcome, type ToolOutcome } from '../tools/tool-result.ts';
import { toolNotFound } from '../tools/not-found.ts';

/** Asks whether a call may run (the UI asks the person); false answers `denied`. */
export type ApprovalGate = (request: {
  conversationId: string;
  turnId: string;
  batchId: string;
  index: number;
  callId: string;
  tool: ToolDefinition;
  args: Record<string, unknown>;
  signal: AbortSignal;
}) => Promise<boolean> | boolean;

/** Sees, and may rewrite, the structured outcome of every call (the `after-tool` hook). */
export type AfterToolHook = (info: {
  tool: ToolDefinition | undefined;
  name: string;
  args: Record<string, unknown>;
  outcome: ToolOutcome;
  context: ToolCallContext;
}) => ToolOutcome | void | Promise<ToolOutcome | void>;

/** One call ready to run: parsed arguments, or the reason they could not be parsed. */
export interface PreparedCall {
  index: number;
  callId: string;
  name: string;
  args: Record<string, unknown>;
  /** Set when the model's argument text was not a JSON object. */
  argumentsProblem?: string;
}

export interface ToolCallPipeline {
  lookUp(name: string): ToolDefinition | undefined;
  approve?: ApprovalGate;
  afterTool?: readonly AfterToolHook[];
  defaultTimeoutMs: number;
}

export interface ToolCallRun {
  outcome: ToolOutcome;
  media: ToolMedia[];
}

/**
 * Runs one call through the kernel's pipeline, in this order: look-up (typed not-found), the
 * CanUse gate, the approval gate, argument validation, the handler (with its timeout and the
 * caller's AbortSignal), result normalisation, `after-tool` hooks. Never throws.
 */
export async function runToolCall(options: {
  pipeline: ToolCallPipeline;
  call: PreparedCall;
  context: Omit<ToolCallContext, 'signal' | 'attachMedia' | 'extra' | 'toolName'>;
  authorization: AuthorizationContext;
  signal: AbortSignal;
}): Promise<ToolCallRun> {
  const { pipeline, call } = options;
  const media: ToolMedia[] = [];
  const tool = pipeline.lookUp(call.name);
  const timeoutMs = tool?.timeoutMs ?? pipeline.defaultTimeoutMs;
  // The call's own signal follows the caller's without adding a listener to it: many calls may
  // share one caller signal (a batch, a sequence), and AbortSignal.any holds them weakly.
  const controller = new AbortController();
  const signal = AbortSignal.any([options.signal, controller.signal]);
  // The timeout covers the gates and the tool's work, but not the approval: a person taking their
  // time over a question is not the tool being slow. It restarts in full after the approval.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = {
    arm: (): void => {
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(
        () =>
          controller.abort(
            new ToolError({ reason: 'timeout', detail: `${call.name} did not finish within ${timeoutMs} ms` }),
          ),
        timeoutMs,
      );
    },
    pause: (): void => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
  timeout.arm();
  const context: ToolCallContext = {
    ...options.context,
    toolName: call.name,
    signal,
    extra: {},
    attachMedia: (item) => void media.push(item),
  };
  try {
    let outcome = await guarded(signal, call.name, () =>
      dispatch({ pipeline, tool, call, context, authorization: options.authorization, timeout }),
    );
    for (const hook of pipeline.afterTool ?? []) {
      try {
        const rewritten = await hook({ tool, name: call.name, args: call.args, outcome, context });
        if (rewritten) outcome = rewritten;
      } catch (error) {
        outcome = {
          ok: false,
          error: { reason: 'failed', detail: `an after-tool hook failed: ${(error as Error).message}` },
        };
      }
    }
    return { outcome, media };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

async function dispatch(options: {
  pipeline: ToolCallPipeline;
  tool: ToolDefinition | undefined;
  call: PreparedCall;
  context: ToolCallContext;
  authorization: AuthorizationContext;
  timeout: { arm(): void; pause(): void };
}): Promise<ToolOutcome> {
  const { tool, call, context } = options;
  if (!tool) return { ok: false, error: toolNotFound(call.name).toData() };
  if (call.argumentsProblem !== undefined) {
    return {
      ok: false,
      error: {
        reason: 'invalid_json',
        detail: `${call.name}: ${call.argumentsProblem}`,
        hint: `Call ${call.name} again with its arguments as one JSON object.`,
      },
    };
  }
  const refusal = await authorizeToolCall({ context: options.authorization, tool, args: call.args });
  if (refusal) return { ok: false, error: refusal.toData() };
  if (options.pipeline.approve) {
    options.timeout.pause();
    const approved = await options.pipeline.approve({
      conversationId: context.conversationId,
      turnId: context.turnId,
      batchId: context.batchId,
      index: context.index,
      callId: call.callId,
      tool,
      args: call.args,
      signal: context.signal,
    });
    if (!approved)
      return {
        ok: false,
        error: {
          reason: 'denied',
          detail: `The person did not allow ${call.name} to run.`,
          hint: 'Do not retry it; ask the person what they want instead.',
        },
      };
    options.timeout.arm();
  }
  const checked = validateArguments({ toolName: tool.name, schema: tool.parameters, args: call.args });
  if (!checked.ok) return { ok: false, error: checked.error.toData() };
  try {
    return normaliseToolOutcome({ returned: await tool.handler(checked.args, context) });
  } catch (error) {
    return normaliseToolOutcome({ thrown: error });
  }
}

/** Resolves with the work's outcome, or at once with `timeout`/`aborted` when the signal fires. */
function guarded(signal: AbortSignal, name: string, work: () => Promise<ToolOutcome>): Promise<ToolOutcome> {
  const stopped = (): ToolOutcome => {
    const reason: unknown = signal.reason;
    if (ToolError.isInstance(reason)) return { ok: false, error: reason.toData() };
    return { ok: false, error: { reason: 'aborted', detail: `${name} was stopped because the turn was aborted.` } };
  };
  if (signal.aborted) return Promise.resolve(stopped());
  return new Promise((resolve) => {
    const onAbort = (): void => resolve(stopped());
    signal.addEventListener('abort', onAbort, { once: true });
    work().then(
      (outcome) => {
        signal.removeEventListener('abort', onAbort);
        resolve(outcome);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        resolve(normaliseToolOutcome({ thrown: error }));
      },
    );
  });
}
