import { z } from 'zod';
import { agentEventSchema, type AgentEvent } from '../../core/events/agent-event.ts';
import { modelProviderSchema, PROVIDERS } from '../../core/models/provider-defaults.ts';
import { TOOL_ORDER_REST } from '../../core/tools/order-tools.ts';
import { settingKeySchema, settingsSchema, settingsTable } from './settings-table.ts';
import { deviceContract } from './device-contract.ts';
import { approvalPinContract } from './approval-pin-contract.ts';
import {
  elicitationContract,
  elicitationEndNoticeSchema,
  elicitationRequestNoticeSchema,
} from './elicitation-contract.ts';
import { approvalAnswerInputSchema, approvalAnswerOutputSchema } from './approval-answer-contract.ts';
import { BUILTIN_WAY_IN_SECRETS } from '../../devices/ways-in/builtin-way-in-settings.ts';
import { BUILTIN_APP_INFO, BUILTIN_PLUGIN_STATUS } from './builtin/builtin-plugin-contract.ts';

/**
 * The one API every front end uses (Electron IPC, HTTP + WebSocket, the renderer's client).
 * Each method has a zod schema for its input and output; transports validate both sides with them.
 * The vocabulary (events, tool-error reasons, outcomes, providers) is defined once in core and
 * re-exported here, so the renderer keeps no copies. Stable: extend, never break.
 */
export { agentEventSchema, PROVIDERS, TOOL_ORDER_REST };
export type { AgentEvent };
export * from './settings-table.ts';
export * from './device-contract.ts';
export * from './approval-pin-contract.ts';
export * from './elicitation-contract.ts';
export * from './elicitation-content.ts';
export { callOutcomeSchema, type CallOutcome } from '../../core/tools/call-outcome.ts';
export { describeCallOutcome, describeErrorReason, type OutcomeWords } from '../../core/tools/describe-call-outcome.ts';
export { describeDeviceState } from '../../core/tools/describe-device-state.ts';
export { toolErrorReasonSchema, type ToolErrorData, type ToolErrorReason } from '../../core/tools/tool-error.ts';
export {
  batchesOfTurn,
  emptyCallRecords,
  foldCallRecords,
  type BatchRecord,
  type CallRecord,
  type CallRecords,
  type CallStatus,
  type StateAfterStop,
} from '../../core/events/fold-call-records.ts';

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
  /** A standing approval was given or taken back (here, in another front end, or by another process). */
  z.object({ type: z.literal('approvals/changed') }),
  z.object({
    type: z.literal('device/event'),
    deviceId: z.string(),
    event: z.string(),
    data: z.record(z.string(), z.unknown()),
  }),
  /** A plugin asks the person a question during a call (a form); only a person answers it (`elicitation/answer`). */
  elicitationRequestNoticeSchema,
  elicitationEndNoticeSchema,
]);
export type HostNotice = z.infer<typeof hostNoticeSchema>;

const conversationSummary = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type ConversationSummary = z.infer<typeof conversationSummary>;

const conversationTitle = z
  .string()
  .trim()
  .min(1, 'a title has at least one character')
  .max(200, 'a title has at most 200 characters');

/** The model fields the Settings form may try before saving them; absent ones are the settings in use, null ones not set. */
const modelFields = z.object({
  provider: settingsTable.provider.schema.nullish(),
  model: settingsTable.model.schema.nullish(),
  baseUrl: settingsTable.baseUrl.schema.nullish(),
  apiKeyEnv: settingsTable.apiKeyEnv.schema.nullish(),
});

/** A model a server offers (the model picker's entries). */
const modelInfo = z.object({ id: z.string(), name: z.string().optional() });
export type ModelInfoSummary = z.infer<typeof modelInfo>;

const appInfo = z.object({
  version: z.string(),
  transport: z.enum(['electron', 'web']),
  model: z.object({
    label: z.string(),
    scripted: z.boolean(),
    notice: z.string().optional(),
    /** False when the model settings cannot be used; the notice says why. */
    ok: z.boolean().optional(),
  }),
  dataDir: z.string(),
  // What the front ends a server adds say of themselves (where their clients reach it), declared in their folders.
  ...BUILTIN_APP_INFO,
});
export type AppInfo = z.infer<typeof appInfo>;

/**
 * The secrets the ways in may use (a broker password), by name, with what the form says of each: where
 * the front end keeps secrets, a field each; the names are declared by the ways in themselves.
 */
export const WAY_IN_SECRETS = BUILTIN_WAY_IN_SECRETS;

const wayInSecretNames = Object.keys(WAY_IN_SECRETS) as [string, ...string[]];
const wayInSecretNameSchema = z.enum(wayInSecretNames, {
  error: `a way-in secret is one of: ${wayInSecretNames.join(', ')}`,
});

export const apiContract = {
  'app/info': { input: z.object({}), output: appInfo },
  'conversations/list': { input: z.object({}), output: z.object({ conversations: z.array(conversationSummary) }) },
  'conversations/create': { input: z.object({ title: z.string().max(200).optional() }), output: conversationSummary },
  /** Renames a conversation; 404 when there is none with that id. */
  'conversations/rename': {
    input: z.object({ conversationId: z.string().min(1).max(200), title: conversationTitle }),
    output: conversationSummary,
  },
  /** Deletes a conversation with its messages and journal; 409 while a turn runs in it, 404 when there is none. */
  'conversations/delete': {
    input: z.object({ conversationId: z.string().min(1).max(200) }),
    output: z.object({ deleted: z.boolean() }),
  },
  /** Conversations whose title or messages contain the text (case-insensitive), the most recent first. */
  'conversations/search': {
    input: z.object({ query: z.string().trim().min(1, 'type something to search for').max(200) }),
    output: z.object({ conversations: z.array(conversationSummary) }),
  },
  /**
   * The journal of one conversation: the same events the live stream carries, in order. Whole unless
   * `page` asks for the last `turns` turns before `before` (whole turns); the answer's `page` gives
   * the `before` of the older page (absent: none) and how many batches precede this one.
   */
  'conversations/events': {
    input: z.object({
      conversationId: z.string().min(1).max(200),
      page: z
        .object({
          turns: z.number().int().min(1).max(500),
          before: z.number().int().min(1).optional(),
        })
        .optional(),
    }),
    output: z.object({
      events: z.array(agentEventSchema),
      page: z.object({ before: z.number().optional(), batchesBefore: z.number() }).optional(),
    }),
  },
  'chat/send': {
    input: z.object({ conversationId: z.string().min(1).max(200).optional(), text: z.string().min(1).max(20_000) }),
    output: z.object({ conversationId: z.string(), turnId: z.string() }),
  },
  /**
   * The person's answer to the `approval/request` whose `approvalId` it names, and to no other, or
   * to each question `approvalIds` names (Allow all once, Deny all) and to no other;
   * `accepted: false` with a message when a named question is not open. With `remember` (and approved)
   * it is "Always allow": a standing approval for that question's tool on that question's device.
   * With `args` (and approved) the call runs with the person's edited arguments, checked again.
   * Other fields a window echoes back (`callId`, `conversationId`, `turnId`) are dropped unread.
   */
  'approval/answer': { input: approvalAnswerInputSchema, output: approvalAnswerOutputSchema },
  'chat/abort': {
    input: z.object({ conversationId: z.string().min(1).max(200) }),
    output: z.object({ aborted: z.boolean() }),
  },
  ...deviceContract,
  ...approvalPinContract,
  ...elicitationContract,
  /** The models the model server offers (the Settings form's picker); `ok: false` says why they cannot be listed. */
  'models/list': {
    input: modelFields,
    output: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), models: z.array(modelInfo) }),
      z.object({ ok: z.literal(false), message: z.string() }),
    ]),
  },
  /** "Test connection": whether the model server answers and offers the model, in a sentence for the person. */
  'models/test': { input: modelFields, output: z.object({ ok: z.boolean(), message: z.string() }) },
  /**
   * Forgets the context windows learned from servers' refusals (Settings' "Forget learned windows"):
   * all, or those of a base URL and a model; the measured ratios stay. `message` says what was done.
   */
  'models/forget-windows': {
    input: z.object({ baseUrl: z.string().min(1).max(2000).optional(), model: z.string().min(1).max(400).optional() }),
    output: z.object({
      forgotten: z.array(z.object({ baseUrl: z.string(), model: z.string(), windowTokens: z.number().int() })),
      message: z.string(),
    }),
  },
  'plugins/list': {
    input: z.object({}),
    output: z.object({
      plugins: z.array(
        z.object({
          name: z.string(),
          description: z.string(),
          enabled: z.boolean(),
          tools: z.array(z.string()),
          // What a running plugin adds (a server's status, trust, stderr…), its status shape declared in its folder.
          ...BUILTIN_PLUGIN_STATUS,
        }),
      ),
      /** Set when the enabled plugins' tool declarations take over half the model's context window. */
      contextWarning: z.string().optional(),
      /** Problems of the MCP config (an unreadable file, a refused server), each saying what to do. */
      problems: z.array(z.string()).optional(),
    }),
  },
  /**
   * Trusts an MCP server (its plugin) or takes the trust back, stored in the data folder. Trust covers
   * the declarations it lists now; a tool that changes later loses it. With `declarationHash` (from
   * `plugins/list`: what the person was shown), trust is given only if its tools are still those, else
   * 409. 404: no such plugin; 400: not an MCP server's.
   */
  'plugins/set-trusted': {
    input: z.object({
      name: z.string().min(1).max(100),
      trusted: z.boolean(),
      declarationHash: z
        .string()
        .regex(/^[0-9a-f]{64}$/, 'a sha256 in lower-case hex')
        .optional(),
    }),
    output: z.object({ trusted: z.boolean() }),
  },
  /**
   * Starts the person's sign-in (OAuth 2.1) to a plugin's server in this host, which keeps the tokens
   * where it keeps secrets (`keptIn`: the OS keychain, else an owner-only file) and uses the server as
   * soon as the browser comes back (the plugin's status leaves `sign-in`). `url`: the address to open;
   * absent when the server accepts the sign-in kept. 404: no such plugin; 400: one that does not sign in.
   */
  'plugins/sign-in': {
    input: z.object({ name: z.string().min(1).max(100) }),
    output: z.object({ url: z.string().optional(), keptIn: z.string() }),
  },
  /** Signs out of a plugin's server: its tokens go, and the server asks for sign-in again. 404/400 as `plugins/sign-in`. */
  'plugins/sign-out': {
    input: z.object({ name: z.string().min(1).max(100) }),
    output: z.object({ removed: z.boolean() }),
  },
  /** Applies between turns. Disabling a plugin whose tools `toolOrder` names is refused with a warning unless `confirm` is true. */
  'plugins/set-enabled': {
    input: z.object({ name: z.string().min(1).max(100), enabled: z.boolean(), confirm: z.boolean().optional() }),
    output: z.object({ applied: z.boolean(), warning: z.string().optional() }),
  },
  /**
   * Which providers have a key in the OS keychain, and which ways in's secrets are kept there (never
   * the keys or secrets themselves: they never reach a front end).
   */
  'secrets/status': {
    input: z.object({}),
    output: z.object({
      available: z.boolean(),
      apiKeys: z.record(z.string(), z.boolean()),
      /** By secret name (`WAY_IN_SECRETS`): whether the keychain keeps it. */
      wayInSecrets: z.record(z.string(), z.boolean()),
    }),
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
  /** Stores a way in's secret (a broker password) in the OS keychain (desktop app only); used from the next start. */
  'secrets/set-way-in-secret': {
    input: z.object({ name: wayInSecretNameSchema, value: z.string().min(1).max(1000) }),
    output: z.object({ stored: z.boolean(), appliesAt: z.literal('next start') }),
  },
  'secrets/delete-way-in-secret': {
    input: z.object({ name: wayInSecretNameSchema }),
    output: z.object({ deleted: z.boolean() }),
  },
  /** The stored settings (never an API key: only the name of the variable that holds it). */
  'settings/get': {
    input: z.object({}),
    output: z.object({
      settings: settingsSchema,
      /** Settings this run sets on its command line or in its environment: they win over the stored values. */
      fixed: z.array(settingKeySchema).optional(),
    }),
  },
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
