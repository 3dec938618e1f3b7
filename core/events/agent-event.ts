import { z } from 'zod';
import { toolErrorDataSchema } from '../tools/tool-error.ts';
import { toolCallRecordSchema } from '../models/conversation-message.ts';
import { callOutcomeSchema } from '../tools/call-outcome.ts';

/**
 * Every event of a turn, `noun/verb`, defined once as zod schemas: the types are inferred from
 * them, the journal stores them, the CLI prints them as JSON Lines, every transport validates them
 * with them and front ends fold them. Fields named here are a stable contract: extend, never break.
 */

/** The longest `message` a `tool/progress` carries; a longer one is cut. */
export const MAX_PROGRESS_MESSAGE_CHARS = 200;

/** Why a turn ended. */
export const turnEndReasonSchema = z.enum(['done', 'error', 'aborted', 'max_steps']);
export type TurnEndReason = z.infer<typeof turnEndReasonSchema>;

export const batchModeSchema = z.enum(['parallel', 'serial']);
export type BatchMode = z.infer<typeof batchModeSchema>;

/**
 * How an approval question ended: the person answered, nobody did in time, the turn stopped, or a
 * standing approval ("Always allow") covered the call so nobody was asked.
 */
export const approvalEndWhySchema = z.enum(['answered', 'timeout', 'aborted', 'standing']);
export type ApprovalEndWhy = z.infer<typeof approvalEndWhySchema>;

const argsSchema = z.record(z.string(), z.unknown());

/**
 * The question's own id (a random UUID: unique across conversations and processes), on its
 * `approval/request` and `approval/end`; `approval/answer` names it. A call id cannot stand in for
 * it: adapters that number calls per step give two conversations the same call ids. Absent in
 * journals written before it existed.
 */
const approvalIdSchema = z.string().optional();

export const batchCallSummarySchema = z.object({
  index: z.number(),
  callId: z.string(),
  name: z.string(),
  args: argsSchema,
});
export type BatchCallSummary = z.infer<typeof batchCallSummarySchema>;

/** What every event carries: when (ms since the epoch), and the conversation and turn it belongs to. */
const eventBase = { at: z.number(), conversationId: z.string(), turnId: z.string() };

/** One event schema: the base fields, the type, and the event's own fields. */
function event<T extends string, S extends z.ZodRawShape>(type: T, shape: S) {
  return z.object({ ...eventBase, type: z.literal(type), ...shape });
}

/** The schema of every agent event, in the order a turn emits them; the journal and every transport use it. */
export const agentEventSchema = z.discriminatedUnion('type', [
  /** `by`: who asked when it was not the person at a front end (an MCP client, by the name it gave). */
  event('turn/start', { text: z.string(), model: z.string(), by: z.string().max(200).optional() }),
  event('step/start', { step: z.number() }),
  /**
   * What a step sent. `requestHash` = sha256(systemPromptHash + "\n" + toolsHash + "\n" +
   * messagesHash) (core/agent/request-hash.ts); the three fields after it are absent from headers
   * recorded before they existed (`verify` calls those steps unverifiable). The messages are those
   * sent after fitting the context window (`omittedTurns`, `shortenedResults`: core/context/fit-history.ts).
   * A step whose first request was refused for its length records a second header for the resend.
   */
  event('request/header', {
    step: z.number(),
    tools: z.array(z.string()),
    systemPromptHash: z.string(),
    requestHash: z.string(),
    /** sha256 of the tool declarations' JSON as sent. */
    toolsHash: z.string().optional(),
    /** The hash chain over the request's messages (gaps answered). */
    messagesHash: z.string().optional(),
    /** The last stored message the request carried (its sequence number in the conversation). */
    messageSeq: z.number().optional(),
    /** The context window (tokens) the request was fitted to; absent when none was known. */
    contextTokens: z.number().optional(),
    /** The request's tokens as estimated (system prompt, tools and the messages sent). */
    estimatedTokens: z.number().optional(),
    /** How many earlier turns were left out (the oldest ones); absent: none. */
    omittedTurns: z.number().optional(),
    /** How many older tool results over 2 KiB were shortened (the oldest ones kept); absent: none. */
    shortenedResults: z.number().optional(),
    /** The bytes of the history not sent (turns left out, results shortened); absent: none. */
    omittedBytes: z.number().optional(),
  }),
  event('text/delta', { step: z.number(), text: z.string() }),
  event('message/assistant', { step: z.number(), text: z.string(), toolCalls: z.array(toolCallRecordSchema) }),
  /**
   * A batch begins: the first event of every batch. While the reply still streams (early start) its
   * complete calls may start, one at a time in index order, before `batch/start`; queued time counts
   * from here. Absent from journals written before it existed (their batches begin at `batch/start`).
   */
  event('batch/open', { batchId: z.string(), step: z.number() }),
  event('batch/start', {
    step: z.number(),
    batchId: z.string(),
    mode: batchModeSchema,
    reason: z.string(),
    calls: z.array(batchCallSummarySchema),
  }),
  event('tool/start', {
    batchId: z.string(),
    callId: z.string(),
    name: z.string(),
    index: z.number(),
    /** The call started while the reply was still streaming, before `batch/start` declared the batch. */
    early: z.literal(true).optional(),
    /**
     * An early call's arguments (no `batch/start` has declared them yet): what a repair needs after a crash.
     * With `modelArgs`: the arguments that run, the person's edit; this `tool/start` follows their approval.
     */
    args: argsSchema.optional(),
    /** What the model asked, when the person edited the arguments before allowing the call (then `args` runs). */
    modelArgs: argsSchema.optional(),
  }),
  event('tool/end', {
    batchId: z.string(),
    callId: z.string(),
    name: z.string(),
    index: z.number(),
    ok: z.boolean(),
    result: z.unknown().optional(),
    error: toolErrorDataSchema.optional(),
    /** What is known of the call's effect (absent in journals written before it existed). */
    outcome: callOutcomeSchema.optional(),
    /** What the call reaches when it is not a device, in words (`the MCP server mcp-x`): its outcome's words name it. */
    reaches: z.string().max(200).optional(),
    queuedMs: z.number(),
    /** From the start of the call to its end (an approval's wait included: see approvalMs). */
    runMs: z.number(),
    /** How much of runMs the call waited for the person's approval (absent when nobody was asked). */
    approvalMs: z.number().optional(),
    startedAt: z.number(),
    endedAt: z.number(),
  }),
  event('approval/request', {
    batchId: z.string(),
    callId: z.string(),
    approvalId: approvalIdSchema,
    index: z.number(),
    name: z.string(),
    args: argsSchema,
    /** The device the call goes to (a device tool's resolved `device_id`): what "Always allow" would cover. */
    deviceId: z.string().optional(),
    /** Allowing it needs the approval PIN (its answer carries `pin`); "Always allow" is not offered for it. */
    needsPin: z.literal(true).optional(),
  }),
  event('approval/end', {
    batchId: z.string(),
    callId: z.string(),
    approvalId: approvalIdSchema,
    approved: z.boolean(),
    why: approvalEndWhySchema,
    /** The person chose "Always allow": a standing approval now covers this tool (on this device). */
    remembered: z.boolean().optional(),
    /** The person allowed the call with arguments they edited (its next `tool/start` carries both). */
    edited: z.literal(true).optional(),
    /** For `why: 'standing'`: the tool and device the standing approval covers. */
    name: z.string().optional(),
    deviceId: z.string().optional(),
  }),
  event('output/send', {
    batchId: z.string(),
    callId: z.string(),
    index: z.number(),
    channel: z.string(),
    text: z.string(),
  }),
  /**
   * What a running call's tool says of its progress (an MCP server's progress notifications):
   * `progress` rises, `total` when known, `message` in the tool's words (bounded). At most
   * MAX_PROGRESS_PER_SECOND a call; live only, never journaled (LIVE_ONLY_EVENT_TYPES).
   */
  event('tool/progress', {
    batchId: z.string(),
    callId: z.string(),
    progress: z.number(),
    total: z.number().optional(),
    message: z.string().max(MAX_PROGRESS_MESSAGE_CHARS).optional(),
  }),
  event('batch/end', { batchId: z.string(), wallMs: z.number(), executed: z.number() }),
  event('step/end', { step: z.number() }),
  /**
   * After a Stop, what a device's own read action found, for devices whose calls ended `unknown`
   * (they may have acted): `result` when it answered, `error` when it could not be read. Emitted
   * before `turn/end`; `callIds` are the unknown calls it concerns, `tool` the read action used.
   */
  event('device/state', {
    deviceId: z.string(),
    tool: z.string(),
    callIds: z.array(z.string()),
    /** The read's arguments besides device_id, when it reads one part of the device (a relay's channel). */
    args: argsSchema.optional(),
    result: z.unknown().optional(),
    error: toolErrorDataSchema.optional(),
  }),
  /** Something about the model's context the person should know (a server cut the request short). */
  event('context/warning', { step: z.number(), message: z.string() }),
  event('agent/error', { message: z.string() }),
  event('turn/end', { reason: turnEndReasonSchema, error: z.string().optional() }),
]);

/** One agent event, as its schema defines it. */
export type AgentEvent = z.infer<typeof agentEventSchema>;
export type AgentEventType = AgentEvent['type'];

/** Every event type, in the order a turn emits them. */
export const AGENT_EVENT_TYPES: readonly AgentEventType[] = agentEventSchema.options.map(
  (option) => option.shape.type.value,
);

/** Distributive Omit, so each event variant keeps its own fields. */
export type AgentEventInput = AgentEvent extends infer E
  ? E extends AgentEvent
    ? Omit<E, 'at' | 'conversationId' | 'turnId'>
    : never
  : never;

/**
 * Events the front ends see live and the journal never keeps: they say how far something got, not
 * what happened, and a reloaded window has no use for them (`tool/progress`).
 */
export const LIVE_ONLY_EVENT_TYPES: ReadonlySet<AgentEventType> = new Set<AgentEventType>(['tool/progress']);
