import { z } from 'zod';
import { PROVIDERS } from '../models/model-choice.ts';
import { TOOL_ORDER_REST } from '../../core/tools/order-tools.ts';

/** Values front ends show and send, from their one source (so the renderer keeps no copies). */
export { PROVIDERS, TOOL_ORDER_REST };

/**
 * The one API every front end uses (Electron IPC, HTTP + WebSocket, the renderer's client).
 * Each method has a zod schema for its input and output; transports validate both sides with them.
 * Stable: extend, never break.
 */

const toolErrorData = z.object({
  reason: z.enum([
    'not_found',
    'required',
    'type',
    'invalid_json',
    'unauthorized',
    'denied',
    'timeout',
    'device_offline',
    'aborted',
    'failed',
  ]),
  field: z.string().optional(),
  detail: z.string().optional(),
  hint: z.string().optional(),
});

const eventBase = { at: z.number(), conversationId: z.string(), turnId: z.string() };
const callSummary = z.object({
  index: z.number(),
  callId: z.string(),
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
});
const toolCallRecord = z.object({
  id: z.string(),
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
  argumentsText: z.string().optional(),
});

/** Every agent event as it crosses a transport (mirrors core/events/agent-event.ts). */
export const agentEventSchema = z.discriminatedUnion('type', [
  z.object({ ...eventBase, type: z.literal('turn/start'), text: z.string(), model: z.string() }),
  z.object({ ...eventBase, type: z.literal('step/start'), step: z.number() }),
  z.object({
    ...eventBase,
    type: z.literal('request/header'),
    step: z.number(),
    tools: z.array(z.string()),
    systemPromptHash: z.string(),
    requestHash: z.string(),
  }),
  z.object({ ...eventBase, type: z.literal('text/delta'), step: z.number(), text: z.string() }),
  z.object({
    ...eventBase,
    type: z.literal('message/assistant'),
    step: z.number(),
    text: z.string(),
    toolCalls: z.array(toolCallRecord),
  }),
  z.object({
    ...eventBase,
    type: z.literal('batch/start'),
    step: z.number(),
    batchId: z.string(),
    mode: z.enum(['parallel', 'serial']),
    reason: z.string(),
    calls: z.array(callSummary),
  }),
  z.object({
    ...eventBase,
    type: z.literal('tool/start'),
    batchId: z.string(),
    callId: z.string(),
    name: z.string(),
    index: z.number(),
  }),
  z.object({
    ...eventBase,
    type: z.literal('tool/end'),
    batchId: z.string(),
    callId: z.string(),
    name: z.string(),
    index: z.number(),
    ok: z.boolean(),
    result: z.unknown().optional(),
    error: toolErrorData.optional(),
    queuedMs: z.number(),
    runMs: z.number(),
    startedAt: z.number(),
    endedAt: z.number(),
  }),
  z.object({
    ...eventBase,
    type: z.literal('approval/request'),
    batchId: z.string(),
    callId: z.string(),
    index: z.number(),
    name: z.string(),
    args: z.record(z.string(), z.unknown()),
  }),
  z.object({
    ...eventBase,
    type: z.literal('approval/end'),
    batchId: z.string(),
    callId: z.string(),
    approved: z.boolean(),
    why: z.enum(['answered', 'timeout', 'aborted']),
  }),
  z.object({
    ...eventBase,
    type: z.literal('output/send'),
    batchId: z.string(),
    callId: z.string(),
    index: z.number(),
    channel: z.string(),
    text: z.string(),
  }),
  z.object({
    ...eventBase,
    type: z.literal('batch/end'),
    batchId: z.string(),
    wallMs: z.number(),
    executed: z.number(),
  }),
  z.object({ ...eventBase, type: z.literal('step/end'), step: z.number() }),
  z.object({ ...eventBase, type: z.literal('agent/error'), message: z.string() }),
  z.object({
    ...eventBase,
    type: z.literal('turn/end'),
    reason: z.enum(['done', 'error', 'aborted', 'max_steps']),
    error: z.string().optional(),
  }),
]);
export type HostAgentEvent = z.infer<typeof agentEventSchema>;

/**
 * What changes outside a turn, sent on the same live stream as the agent events (they carry no
 * conversation): a device came or went, a plugin was toggled, a device announced something.
 */
export const hostNoticeSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('devices/changed') }),
  z.object({ type: z.literal('plugins/changed') }),
  z.object({
    type: z.literal('device/event'),
    deviceId: z.string(),
    event: z.string(),
    data: z.record(z.string(), z.unknown()),
  }),
]);
export type HostNotice = z.infer<typeof hostNoticeSchema>;

const conversationSummary = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type ConversationSummary = z.infer<typeof conversationSummary>;

const deviceSummary = z.object({
  id: z.string(),
  alias: z.string(),
  kind: z.string(),
  path: z.string(),
  online: z.boolean(),
  tools: z.array(z.string()),
  /** False when the device's hello no longer matches the identity confirmed at pairing: the agent cannot use it. */
  trusted: z.boolean().optional(),
  /** Frames this device sent that were dropped, by kind (counted since the app started). */
  frameProblems: z.object({ oversized: z.number(), invalidJson: z.number(), invalidFrame: z.number() }).optional(),
});
export type DeviceSummary = z.infer<typeof deviceSummary>;

const appInfo = z.object({
  version: z.string(),
  transport: z.enum(['electron', 'web']),
  model: z.object({ label: z.string(), scripted: z.boolean(), notice: z.string().optional() }),
  dataDir: z.string(),
});
export type AppInfo = z.infer<typeof appInfo>;

export const apiContract = {
  'app/info': { input: z.object({}), output: appInfo },
  'conversations/list': { input: z.object({}), output: z.object({ conversations: z.array(conversationSummary) }) },
  'conversations/create': { input: z.object({ title: z.string().max(200).optional() }), output: conversationSummary },
  /** The journal of one conversation: the same events the live stream carries, in order. */
  'conversations/events': {
    input: z.object({ conversationId: z.string().min(1).max(200) }),
    output: z.object({ events: z.array(agentEventSchema) }),
  },
  'chat/send': {
    input: z.object({ conversationId: z.string().min(1).max(200).optional(), text: z.string().min(1).max(20_000) }),
    output: z.object({ conversationId: z.string(), turnId: z.string() }),
  },
  /** The person's answer to an `approval/request`; false when no such question is open. */
  'approval/answer': {
    input: z.object({ callId: z.string().min(1).max(200), approved: z.boolean() }),
    output: z.object({ accepted: z.boolean() }),
  },
  'chat/abort': {
    input: z.object({ conversationId: z.string().min(1).max(200) }),
    output: z.object({ aborted: z.boolean() }),
  },
  'devices/list': { input: z.object({}), output: z.object({ devices: z.array(deviceSummary) }) },
  'plugins/list': {
    input: z.object({}),
    output: z.object({
      plugins: z.array(
        z.object({ name: z.string(), description: z.string(), enabled: z.boolean(), tools: z.array(z.string()) }),
      ),
    }),
  },
  /** Applies between turns. Disabling a plugin whose tools `toolOrder` names is refused with a warning unless `confirm` is true. */
  'plugins/set-enabled': {
    input: z.object({ name: z.string().min(1).max(100), enabled: z.boolean(), confirm: z.boolean().optional() }),
    output: z.object({ applied: z.boolean(), warning: z.string().optional() }),
  },
  /** Which providers have a key in the OS keychain (never the keys themselves: they never reach a front end). */
  'secrets/status': {
    input: z.object({}),
    output: z.object({ available: z.boolean(), apiKeys: z.record(z.string(), z.boolean()) }),
  },
  /** Stores a provider's key in the OS keychain (desktop app only); used from the next start. */
  'secrets/set-api-key': {
    input: z.object({
      provider: z.enum(['openai', 'anthropic', 'gemini', 'ollama']),
      apiKey: z.string().min(1).max(1000),
    }),
    output: z.object({ stored: z.boolean(), appliesAt: z.literal('next start') }),
  },
  'secrets/delete-api-key': {
    input: z.object({ provider: z.enum(['openai', 'anthropic', 'gemini', 'ollama']) }),
    output: z.object({ deleted: z.boolean() }),
  },
  /** The stored settings (never an API key: only the name of the variable that holds it). */
  'settings/get': { input: z.object({}), output: z.object({ settings: z.record(z.string(), z.unknown()) }) },
  'settings/set': {
    input: z.object({ key: z.string().min(1).max(100), value: z.unknown().optional() }),
    output: z.object({ settings: z.record(z.string(), z.unknown()) }),
  },
} as const;

export type ApiContract = typeof apiContract;
export type ApiMethod = keyof ApiContract;
export type ApiInput<M extends ApiMethod> = z.input<ApiContract[M]['input']>;
export type ApiOutput<M extends ApiMethod> = z.output<ApiContract[M]['output']>;

/** The typed surface every front end sees (the preload exposes exactly this; the web client implements it). */
export interface HomeAgentApi {
  call<M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>>;
  /** Subscribe to live events; returns the unsubscribe function. */
  onEvent(listener: (event: HostAgentEvent) => void): () => void;
  /** Subscribe to notices of changes outside a turn (devices, plugins). */
  onNotice?(listener: (notice: HostNotice) => void): () => void;
}

export const API_METHODS = Object.keys(apiContract) as ApiMethod[];
