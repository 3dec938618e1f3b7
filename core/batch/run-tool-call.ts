import type {
  AuthorizationContext,
  CallIdentity,
  ToolCallContext,
  ToolDefinition,
  ToolMedia,
  ToolProgress,
} from '../tools/tool-definition.ts';
import { progressReporter } from './progress-reporter.ts';
import { ToolError } from '../tools/tool-error.ts';
import { authorizeToolCall } from '../tools/authorize-tool-call.ts';
import { validateArguments } from '../tools/validate-arguments.ts';
import { compactJson, normaliseToolOutcome, type ToolOutcome } from '../tools/tool-result.ts';
import { checkEditedArguments } from '../tools/check-edited-arguments.ts';
import { notJournaledOutcome } from './not-journaled.ts';
import { classifyCallOutcome } from '../tools/call-outcome.ts';
import { toolNotFound } from '../tools/not-found.ts';
import { argumentBoundError, argumentBoundProblem, type ArgumentBounds } from '../tools/argument-bounds.ts';
import { roundMs } from '../events/round-ms.ts';
import type { ToolCallRun } from '../tools/tool-call-run.ts';

/** A refusal that says why nobody allowed the call and what would (e.g. `ask` does not prompt). */
export interface ApprovalRefusal {
  approved: false;
  detail: string;
  hint?: string;
}

/** The person allowed the call with arguments they edited: it runs with these, checked again, never the model's. */
export interface ApprovalWithEdit {
  approved: true;
  args: Record<string, unknown>;
}

/**
 * Asks whether a call may run (the UI asks the person); false (or a refusal) answers `denied`; an
 * edit (`ApprovalWithEdit`) allows it with the person's arguments.
 * `caller` is who made the call (the agent's batch, or a plugin or server through the ToolAPI).
 */
export type ApprovalGate = (
  request: CallIdentity & {
    tool: ToolDefinition;
    args: Record<string, unknown>;
    signal: AbortSignal;
    caller?: string;
    /** Called when the question is really put to a person (not when a standing approval or a policy answers). */
    onAsked?: () => void;
  },
) => Promise<boolean | ApprovalRefusal | ApprovalWithEdit> | boolean | ApprovalRefusal | ApprovalWithEdit;

/** Sees, and may rewrite, the structured outcome of every call (the `after-tool` hook). */
export type AfterToolHook = (info: {
  tool: ToolDefinition | undefined;
  name: string;
  args: Record<string, unknown>;
  outcome: ToolOutcome;
  context: ToolCallContext;
}) => ToolOutcome | void | Promise<ToolOutcome | void>;

/** One call ready to run: parsed arguments (or why they could not be parsed) and its tool, looked up once. */
export interface PreparedCall {
  index: number;
  callId: string;
  name: string;
  args: Record<string, unknown>;
  /** Set when the model's argument text was not a JSON object. */
  argumentsProblem?: string;
  /** The tool of that name; absent when there is none (the call ends `not_found`, or `withheld`). */
  tool: ToolDefinition | undefined;
  /** Why a plugin withholds the absent tool (a device action nobody granted): answered instead of not-found. */
  withheld?: ToolError;
}

/** What every call of a batch (or of the ToolAPI) goes through besides its own tool. */
export interface ToolCallPipeline {
  approve?: ApprovalGate;
  afterTool?: readonly AfterToolHook[];
  defaultTimeoutMs: number;
  /**
   * The size bound of arguments (the host's `maxToolArgumentBytes`), read at each call; the depth
   * bound always applies. Give the journal's bus (AgentEvents) the same, so what runs is what it keeps.
   */
  argumentBounds?: () => ArgumentBounds;
}

/** How far a call got, for classifying its outcome. */
interface CallProgress {
  handlerStarted: boolean;
  /** The arguments the person edited and the call ran with (else it ran with the model's). */
  editedArgs?: Record<string, unknown>;
  sent: boolean;
  approvalMs?: number;
  output?: string;
}

/**
 * Runs one call through the kernel's pipeline, in this order: look-up (typed not-found), the
 * argument bounds (depth, size), the CanUse gate, the approval gate, argument validation, the handler (with its timeout and the
 * caller's AbortSignal), result normalisation, `after-tool` hooks. Never throws.
 */
export async function runToolCall(options: {
  pipeline: ToolCallPipeline;
  call: PreparedCall;
  identity: CallIdentity;
  authorization: AuthorizationContext;
  signal: AbortSignal;
  now?: () => number;
  /**
   * The person edited the arguments and they passed every check again: journals what runs beside what
   * the model asked (`tool/start` with `args` and `modelArgs`); false when it could not, and the call does not run.
   */
  onArgumentsEdited?: (args: Record<string, unknown>) => boolean;
  /** The tool's progress reports while it runs, at most MAX_PROGRESS_PER_SECOND a second; absent: not asked for. */
  onProgress?: (update: ToolProgress) => void;
}): Promise<ToolCallRun> {
  const { pipeline, call } = options;
  const now = options.now ?? (() => performance.now());
  const media: ToolMedia[] = [];
  const progress: CallProgress = { handlerStarted: false, sent: false };
  const timeoutMs = call.tool?.timeoutMs ?? pipeline.defaultTimeoutMs;
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
    ...options.identity,
    toolName: call.name,
    signal,
    extra: {},
    attachMedia: (item) => void media.push(item),
    reportOutput: (text) => void (progress.output = text),
    markSent: () => void (progress.sent = true),
  };
  const reporter = options.onProgress ? progressReporter(options.onProgress) : undefined;
  if (reporter) context.reportProgress = (update) => reporter.report(update);
  // A person taking their time over a server's question is not the tool being slow (as with an approval).
  let holds = 0;
  let ended = false;
  context.holdTimeout = () => {
    holds += 1;
    timeout.pause();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      holds -= 1;
      if (holds === 0 && !ended) timeout.arm();
    };
  };
  try {
    let outcome = await guarded(signal, call.name, () =>
      dispatch({
        pipeline,
        call,
        context,
        authorization: options.authorization,
        timeout,
        progress,
        now,
        ...(options.onArgumentsEdited ? { onArgumentsEdited: options.onArgumentsEdited } : {}),
      }),
    );
    const ranArgs = progress.editedArgs ?? call.args;
    for (const hook of pipeline.afterTool ?? []) {
      try {
        const rewritten = await hook({ tool: call.tool, name: call.name, args: ranArgs, outcome, context });
        if (rewritten) outcome = rewritten;
      } catch (error) {
        outcome = {
          ok: false,
          error: { reason: 'failed', detail: `an after-tool hook failed: ${(error as Error).message}` },
        };
      }
    }
    // Truthful: the model reads that the person changed its arguments, and to what.
    if (progress.editedArgs !== undefined) outcome = withEditNote(outcome, call.args, progress.editedArgs);
    const callOutcome = classifyCallOutcome({
      ok: outcome.ok,
      ...(outcome.ok ? {} : { reason: outcome.error.reason }),
      handlerStarted: progress.handlerStarted,
      reportsDelivery: call.tool?.reportsDelivery === true,
      sent: progress.sent,
    });
    return {
      outcome,
      callOutcome,
      media,
      ...(outcome.ok && progress.output !== undefined ? { output: progress.output } : {}),
      ...(progress.approvalMs !== undefined ? { approvalMs: progress.approvalMs } : {}),
    };
  } finally {
    ended = true;
    if (timer !== undefined) clearTimeout(timer);
    reporter?.end();
  }
}

async function dispatch(options: {
  pipeline: ToolCallPipeline;
  call: PreparedCall;
  context: ToolCallContext;
  authorization: AuthorizationContext;
  timeout: { arm(): void; pause(): void };
  progress: CallProgress;
  now: () => number;
  onArgumentsEdited?: (args: Record<string, unknown>) => boolean;
}): Promise<ToolOutcome> {
  const { call, context, progress } = options;
  let args = call.args;
  const { tool } = call;
  if (!tool) return { ok: false, error: (call.withheld ?? toolNotFound(call.name)).toData() };
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
  // Before anything walks them (the gates, the approval question, validation): a loop that stops at the bound.
  const breach = argumentBoundProblem(call.args, options.pipeline.argumentBounds?.());
  if (breach) return { ok: false, error: argumentBoundError(call.name, breach).toData() };
  const refusal = await authorizeToolCall({ context: options.authorization, tool, args: call.args });
  if (refusal) return { ok: false, error: refusal.toData() };
  if (options.pipeline.approve) {
    options.timeout.pause();
    const asked = options.now();
    let personAsked = false;
    const approved = await options.pipeline.approve({
      onAsked: () => (personAsked = true),
      conversationId: context.conversationId,
      turnId: context.turnId,
      batchId: context.batchId,
      index: context.index,
      callId: context.callId,
      tool,
      args: call.args,
      signal: context.signal,
      caller: options.authorization.caller,
    });
    // Only a question that was really put to the person counts as waiting for them.
    if (personAsked) progress.approvalMs = roundMs(options.now() - asked);
    if (approved === false || (approved !== true && !approved.approved))
      return {
        ok: false,
        error:
          approved === false
            ? {
                reason: 'denied',
                detail: `The person did not allow ${call.name} to run.`,
                hint: 'Do not retry it; ask the person what they want instead.',
              }
            : {
                reason: 'denied',
                detail: approved.detail,
                ...(approved.hint !== undefined ? { hint: approved.hint } : {}),
              },
      };
    options.timeout.arm();
    if (approved !== true && approved.approved) {
      const edited = await checkEdit({ ...options, tool, edited: approved.args });
      if (!edited.ok) return edited.outcome;
      args = edited.args;
      progress.editedArgs = args;
    }
  }
  const checked = validateArguments({ toolName: tool.name, schema: tool.parameters, args });
  if (!checked.ok) return { ok: false, error: checked.error.toData() };
  // Stopped while a gate was deciding: the call has already been answered, so it must never act.
  if (context.signal.aborted)
    return { ok: false, error: { reason: 'aborted', detail: `${call.name} was stopped before it ran.` } };
  progress.handlerStarted = true;
  try {
    return normaliseToolOutcome({ returned: await tool.handler(checked.args, context) });
  } catch (error) {
    return normaliseToolOutcome({ thrown: error });
  }
}

/**
 * The person's edited arguments pass every check again, as the model's did: the input bounds, the
 * schema, `device_id` unchanged (checkEditedArguments), then the CanUse gate (the grant); then the
 * journal records them (`onArgumentsEdited`). A failure is the call's outcome; nothing runs.
 */
async function checkEdit(options: {
  pipeline: ToolCallPipeline;
  call: PreparedCall;
  tool: ToolDefinition;
  authorization: AuthorizationContext;
  edited: Record<string, unknown>;
  onArgumentsEdited?: (args: Record<string, unknown>) => boolean;
}): Promise<{ ok: true; args: Record<string, unknown> } | { ok: false; outcome: ToolOutcome }> {
  const { call, tool } = options;
  const bounds = options.pipeline.argumentBounds?.();
  const check = checkEditedArguments({
    tool,
    modelArgs: call.args,
    edited: options.edited,
    ...(bounds !== undefined ? { bounds } : {}),
  });
  if (!check.ok)
    return {
      ok: false,
      outcome: {
        ok: false,
        error: {
          reason: 'denied',
          detail: `The person allowed ${call.name} with arguments of their own, which could not run: ${check.problem}. It did not run.`,
          hint: 'Ask the person what they want instead of retrying it.',
        },
      },
    };
  const refusal = await authorizeToolCall({ context: options.authorization, tool, args: options.edited });
  if (refusal) return { ok: false, outcome: { ok: false, error: refusal.toData() } };
  if (options.onArgumentsEdited && !options.onArgumentsEdited(options.edited))
    return { ok: false, outcome: notJournaledOutcome({ name: call.name, what: 'tool/start' }) };
  return { ok: true, args: options.edited };
}

/** The outcome the model reads for a call the person edited: what it asked, what ran, and the result. */
function withEditNote(
  outcome: ToolOutcome,
  modelArgs: Record<string, unknown>,
  ranArgs: Record<string, unknown>,
): ToolOutcome {
  const note = `The person changed the arguments before allowing this call: it ran with ${compactJson(ranArgs)} instead of ${compactJson(modelArgs)}.`;
  if (outcome.ok)
    return {
      ok: true,
      value: { personChangedArguments: { asked: modelArgs, ran: ranArgs, note }, result: outcome.value },
    };
  return { ok: false, error: { ...outcome.error, detail: `${outcome.error.detail ?? outcome.error.reason}. ${note}` } };
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
