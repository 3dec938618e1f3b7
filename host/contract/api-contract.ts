import { z } from 'zod';
import { agentEventSchema, type AgentEvent } from '../../core/events/agent-event.ts';
import { modelProviderSchema, PROVIDERS } from '../../core/models/provider-defaults.ts';
import { TOOL_ORDER_REST } from '../../core/tools/order-tools.ts';
import { settingKeySchema, settingsSchema } from './settings-table.ts';

/**
 * The one API every front end uses (Electron IPC, HTTP + WebSocket, the renderer's client).
 * Each method has a zod schema for its input and output; transports validate both sides with them.
 * The vocabulary (events, tool-error reasons, outcomes, providers) is defined once in core and
 * re-exported here, so the renderer keeps no copies. Stable: extend, never break.
 */
export { agentEventSchema, PROVIDERS, TOOL_ORDER_REST };
export type { AgentEvent };
export * from './settings-table.ts';
export { callOutcomeSchema, type CallOutcome } from '../../core/tools/call-outcome.ts';
export { toolErrorReasonSchema, type ToolErrorData, type ToolErrorReason } from '../../core/tools/tool-error.ts';

/** An agent event as it crosses a transport (the same type the kernel emits). */
export type HostAgentEvent = AgentEvent;

/** A failed call as every transport carries it: status, message, and for a refused value its field and issues. */
export const apiFailureSchema = z.object({
  status: z.number(),
  message: z.string(),
  field: z.string().optional(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ApiFailure = z.infer<typeof apiFailureSchema>;

/** The answer of any call on a transport: the result, or the failure. */
export const apiEnvelopeSchema = z.union([
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({ ok: z.literal(false), error: apiFailureSchema }),
]);
export type ApiEnvelope = z.infer<typeof apiEnvelopeSchema>;

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
  /** Its latest trouble: a refused hello (with the reason), a failed connection, an event flood. */
  lastError: z.object({ message: z.string(), at: z.number() }).optional(),
  /** Events it sent past its rate (the setting deviceEventsPerSecond), dropped and counted. */
  eventsDropped: z.number().optional(),
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
      provider: modelProviderSchema,
      apiKey: z.string().min(1).max(1000),
    }),
    output: z.object({ stored: z.boolean(), appliesAt: z.literal('next start') }),
  },
  'secrets/delete-api-key': {
    input: z.object({ provider: modelProviderSchema }),
    output: z.object({ deleted: z.boolean() }),
  },
  /** The stored settings (never an API key: only the name of the variable that holds it). */
  'settings/get': { input: z.object({}), output: z.object({ settings: settingsSchema }) },
  /**
   * Stores one setting (no value, or null, unsets it). A refused value fails with status 400 and
   * `{ field, issues }`, each issue written for the person.
   */
  'settings/set': {
    input: z.object({ key: settingKeySchema, value: z.unknown().optional() }),
    output: z.object({ settings: settingsSchema }),
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

/**
 * What the Electron preload exposes (`window.homeAgent`): calls answer with the envelope, which the
 * renderer's client checks and unwraps, because IPC keeps only the message of a thrown error.
 */
export interface HomeAgentBridge {
  call(method: ApiMethod, input: unknown): Promise<unknown>;
  onEvent(listener: (event: unknown) => void): () => void;
  onNotice(listener: (notice: unknown) => void): () => void;
}

export const API_METHODS = Object.keys(apiContract) as ApiMethod[];
