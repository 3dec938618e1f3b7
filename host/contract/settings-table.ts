import { z } from 'zod';
import { PROVIDER_MANIFESTS, providerSchema, type ModelProvider } from '../../core/models/provider-defaults.ts';
import type { ProviderManifest } from '../../core/models/provider-manifest.ts';
import { assertToolOrderShape, TOOL_ORDER_REST, ToolOrderError } from '../../core/tools/order-tools.ts';
import { DEFAULT_OLLAMA_NUM_CTX } from '../../core/context/context-keeper.ts';
import { wholeNumber, type SettingDeclaration, type SettingInputKind } from '../../devices/links/way-in-setting.ts';
import { BUILTIN_WAY_IN_SETTINGS } from '../../devices/ways-in/builtin-way-in-settings.ts';
import { mcpClientSettings } from '../plugins/mcp/mcp-client-settings.ts';

/** How a setting is edited in the form (declared with the shape of a setting, in devices/links/way-in-setting.ts). */
export type { SettingInputKind };

/**
 * One setting, described once: the store, the merge of flags over stored values, the CLI,
 * Electron's start-up and the renderer's form are all derived from these entries. The ways in
 * declare theirs with the same shape (a way in lives below the host, so the shape lives there).
 */
export type SettingSpec<S extends z.ZodType = z.ZodType> = SettingDeclaration<S>;

function setting<S extends z.ZodType>(spec: SettingSpec<S>): SettingSpec<S> {
  return spec;
}

/** The default of `mcpMaxResultBytes`: 256 KiB, like a sequence run's results. */
const MCP_MAX_RESULT_BYTES = 262_144;

/** A setting whose unset value the code reads from here (`settingValue`), and nowhere else. */
function settingWithDefault<S extends z.ZodType>(
  spec: SettingSpec<S> & { default: z.output<S> },
): SettingSpec<S> & { default: z.output<S> } {
  return spec;
}

const MAX_TOOL_NAME_LENGTH = 200;

/** A `toolOrder` policy: names, exactly one rest entry, no duplicates (the kernel's own shape check). */
const toolOrderSchema = z
  .array(
    z
      .string()
      .min(1, 'a tool name is not empty')
      .max(MAX_TOOL_NAME_LENGTH, `a tool name has at most ${MAX_TOOL_NAME_LENGTH} characters`),
    { error: 'a list of tool names' },
  )
  .superRefine((toolOrder, context) => {
    // The shape check quotes names: one over the bound is refused above, never echoed here.
    if (toolOrder.some((name) => name.length > MAX_TOOL_NAME_LENGTH)) return;
    try {
      assertToolOrderShape(toolOrder);
    } catch (error) {
      if (!(error instanceof ToolOrderError)) throw error;
      context.addIssue({ code: 'custom', message: error.message });
    }
  });

/** The default of `maxToolArgumentBytes`: 64 KiB, far above what a device or sequence call needs. */
const MAX_TOOL_ARGUMENT_BYTES = 65_536;

/** How long a call from an MCP client waits for a person's answer while mcpApprovalWaitMs is unset. */
const MCP_APPROVAL_WAIT_DEFAULT_MS = 60_000;

/** What each wire format's manifest says of one field, by provider name (the form shows it while that provider is chosen). */
function byProvider(pick: (manifest: ProviderManifest) => string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(PROVIDER_MANIFESTS).map(([provider, manifest]) => [provider as ModelProvider, pick(manifest)]),
  );
}

/**
 * Every setting, in the form's order. Adding a setting is one entry here plus its use.
 * The API key itself is never a setting: only the name of the environment variable that holds it.
 */
export const settingsTable = {
  provider: setting({
    schema: z.enum(providerSchema.options, { error: `the provider is one of ${providerSchema.options.join(', ')}` }),
    label: 'Provider',
    input: 'select',
    options: providerSchema.options,
    help: 'Which kind of model server to use; demo needs none.',
    dependsOn: {
      setting: 'provider',
      hints: byProvider((manifest) => `Which servers speak it and what to give: ${manifest.docsSection}.`),
    },
    flag: 'provider',
    env: 'HOME_AGENT_PROVIDER',
    appliesAt: 'turn',
  }),
  model: setting({
    schema: z.string().trim().min(1, 'name a model, e.g. llama3.1').max(200, 'a model name has at most 200 characters'),
    label: 'Model',
    input: 'text',
    placeholder: 'e.g. gpt-4o-mini, llama3.1',
    dependsOn: { setting: 'provider', placeholders: byProvider((manifest) => manifest.placeholders.model) },
    valueName: 'M',
    flag: 'model',
    env: 'HOME_AGENT_MODEL',
    appliesAt: 'turn',
  }),
  baseUrl: setting({
    schema: z
      .url({
        protocol: /^https?$/,
        error: 'a web address starting with http:// or https://, e.g. http://127.0.0.1:11434/v1',
      })
      .max(2000, 'a web address has at most 2,000 characters'),
    label: 'Base URL',
    input: 'text',
    placeholder: 'the provider’s usual address',
    help: 'Where the model server answers; empty: the provider’s usual address.',
    dependsOn: { setting: 'provider', placeholders: byProvider((manifest) => manifest.placeholders.baseUrl) },
    valueName: 'URL',
    flag: 'base-url',
    env: 'HOME_AGENT_BASE_URL',
    appliesAt: 'turn',
  }),
  apiKeyEnv: setting({
    schema: z
      .string()
      .max(200, 'a variable name has at most 200 characters')
      .regex(
        /^[A-Za-z_][A-Za-z0-9_]*$/,
        'the name of an environment variable: letters, digits and _, not starting with a digit (e.g. OPENAI_API_KEY)',
      ),
    label: 'API key variable',
    input: 'text',
    placeholder: 'the provider’s usual variable',
    help: 'The name of the environment variable that holds the key. The key itself is never stored here.',
    dependsOn: { setting: 'provider', placeholders: byProvider((manifest) => manifest.placeholders.apiKeyEnv) },
    valueName: 'VAR',
    flag: 'api-key-env',
    env: 'HOME_AGENT_API_KEY_ENV',
    appliesAt: 'turn',
  }),
  persona: setting({
    schema: z.string().max(20_000, 'the persona has at most 20,000 characters'),
    label: 'Persona',
    input: 'textarea',
    help: 'Added to the system prompt.',
    valueName: 'TEXT',
    flag: 'persona',
    env: 'HOME_AGENT_PERSONA',
    appliesAt: 'turn',
  }),
  toolOrder: setting({
    schema: toolOrderSchema,
    label: 'Tool order',
    input: 'lines',
    placeholder: `lamp__set\n${TOOL_ORDER_REST}`,
    help: `One tool name per line. ${TOOL_ORDER_REST} must appear exactly once: unlisted tools go there, alphabetically. Empty: plain alphabetical order.`,
    valueName: "'<JSON list>'",
    flag: 'tool-order',
    env: 'HOME_AGENT_TOOL_ORDER',
    appliesAt: 'turn',
  }),
  maxSteps: setting({
    schema: wholeNumber({ min: 1, max: 100, what: 'the step limit' }),
    label: 'Max steps',
    input: 'integer',
    help: 'Model replies per turn, 1–100.',
    flag: 'max-steps',
    env: 'HOME_AGENT_MAX_STEPS',
    appliesAt: 'turn',
  }),
  toolTimeoutMs: setting({
    schema: wholeNumber({ min: 1, max: 3_600_000, what: 'the tool timeout (ms)' }),
    label: 'Tool timeout (ms)',
    input: 'integer',
    help: 'How long one tool call may run, in milliseconds; empty: 30,000.',
    flag: 'tool-timeout-ms',
    env: 'HOME_AGENT_TOOL_TIMEOUT_MS',
    appliesAt: 'turn',
  }),
  concurrencyCap: setting({
    schema: wholeNumber({ min: 1, max: 256, what: 'the cap on parallel calls' }),
    label: 'Parallel calls at most',
    input: 'integer',
    help: 'Empty: every call of a parallel reply runs at once.',
    flag: 'concurrency-cap',
    env: 'HOME_AGENT_CONCURRENCY_CAP',
    appliesAt: 'turn',
  }),
  replyTimeoutMs: setting({
    schema: wholeNumber({ min: 1000, max: 3_600_000, what: 'the reply deadline (ms)' }),
    label: 'Reply deadline (ms)',
    input: 'integer',
    help: 'How long one model reply may take in all; empty: 300,000 (5 minutes).',
    flag: 'reply-timeout-ms',
    env: 'HOME_AGENT_REPLY_TIMEOUT_MS',
    appliesAt: 'turn',
  }),
  replyMaxBytes: setting({
    schema: wholeNumber({ min: 1024, max: 67_108_864, what: 'the reply size limit (bytes)' }),
    label: 'Reply size limit (bytes)',
    input: 'integer',
    help: 'How much text and tool arguments one model reply may carry; empty: 1,048,576 (1 MiB).',
    flag: 'reply-max-bytes',
    env: 'HOME_AGENT_REPLY_MAX_BYTES',
    appliesAt: 'turn',
  }),
  sequenceMaxCalls: setting({
    schema: wholeNumber({ min: 1, max: 1_000_000, what: 'the calls of one sequence run' }),
    label: 'Sequence run: calls at most',
    input: 'integer',
    help: 'Calls one sequence run may start, nested runs included; empty: 2,000.',
    flag: 'sequence-max-calls',
    env: 'HOME_AGENT_SEQUENCE_MAX_CALLS',
    appliesAt: 'turn',
  }),
  sequenceMaxResultBytes: setting({
    schema: wholeNumber({ min: 1024, max: 67_108_864, what: 'the results of one sequence run (bytes)' }),
    label: 'Sequence run: results at most (bytes)',
    input: 'integer',
    help: 'How much one sequence run may keep of its tools’ results; empty: 262,144 (256 KiB).',
    flag: 'sequence-max-result-bytes',
    env: 'HOME_AGENT_SEQUENCE_MAX_RESULT_BYTES',
    appliesAt: 'turn',
  }),
  sequenceWallTimeMs: setting({
    schema: wholeNumber({ min: 1000, max: 3_600_000, what: 'the wall time of one sequence run (ms)' }),
    label: 'Sequence run: wall time (ms)',
    input: 'integer',
    help: 'How long one sequence run may take in all; empty: 120,000 (2 minutes).',
    flag: 'sequence-wall-time-ms',
    env: 'HOME_AGENT_SEQUENCE_WALL_TIME_MS',
    appliesAt: 'turn',
  }),
  contextTokens: setting({
    schema: wholeNumber({ min: 1024, max: 10_000_000, what: 'the context window (tokens)' }),
    label: 'Context window (tokens)',
    input: 'integer',
    help: 'How many tokens the model takes in one request; older turns that do not fit are not sent. Empty: as the server or its maker says, or as learned from a refusal.',
    flag: 'context-tokens',
    env: 'HOME_AGENT_CONTEXT_TOKENS',
    appliesAt: 'turn',
  }),
  ollamaNumCtx: setting({
    schema: wholeNumber({ min: 1024, max: 2_097_152, what: "Ollama's context length (num_ctx)" }),
    label: 'Ollama context length (num_ctx)',
    input: 'integer',
    help: `The context length every Ollama request asks for, never above the model's own; its memory use grows with it. Empty: ${DEFAULT_OLLAMA_NUM_CTX.toLocaleString('en-US')}.`,
    flag: 'ollama-num-ctx',
    env: 'HOME_AGENT_OLLAMA_NUM_CTX',
    appliesAt: 'turn',
  }),
  mcpApprovalWaitMs: settingWithDefault({
    schema: wholeNumber({ min: 1000, max: 3_600_000, what: 'the wait for an answer to an MCP client’s call (ms)' }),
    label: 'MCP: wait for your answer (ms)',
    input: 'integer',
    help: `How long a call from an MCP client (Claude Desktop, an editor) that needs your approval waits for an answer in a window before it is refused; empty: ${MCP_APPROVAL_WAIT_DEFAULT_MS.toLocaleString('en')} (1 minute).`,
    flag: 'mcp-approval-wait-ms',
    env: 'HOME_AGENT_MCP_APPROVAL_WAIT_MS',
    appliesAt: 'turn',
    default: MCP_APPROVAL_WAIT_DEFAULT_MS,
  }),
  maxToolArgumentBytes: settingWithDefault({
    schema: wholeNumber({ min: 1024, max: 4_194_304, what: 'the size of one call’s arguments (bytes)' }),
    label: 'Tool arguments: size limit (bytes)',
    input: 'integer',
    help: `How large one tool call’s arguments may be, as JSON, whoever made the call (the model, an MCP client, a sequence); a larger call is refused before it runs and only its start is kept in the journal. Empty: ${MAX_TOOL_ARGUMENT_BYTES.toLocaleString('en-US')} (64 KiB).`,
    flag: 'max-tool-argument-bytes',
    env: 'HOME_AGENT_MAX_TOOL_ARGUMENT_BYTES',
    appliesAt: 'turn',
    default: MAX_TOOL_ARGUMENT_BYTES,
  }),
  earlyToolStart: setting({
    schema: z.enum(['on', 'off'], { error: 'early tool start is on or off' }),
    label: 'Start tools while the reply streams',
    input: 'select',
    options: ['on', 'off'],
    help: 'on: a call the model has finished starts at once, one at a time in order, while the rest of the reply streams; off: nothing runs before the reply ends. Empty: on.',
    flag: 'early-tool-start',
    env: 'HOME_AGENT_EARLY_TOOL_START',
    appliesAt: 'turn',
  }),
  deviceEventsPerSecond: setting({
    schema: wholeNumber({ min: 1, max: 10_000, what: 'the events per device per second' }),
    label: 'Device events per second',
    input: 'integer',
    help: 'Events one device may announce per second; the excess is dropped and counted. Empty: 20.',
    flag: 'device-events-per-second',
    env: 'HOME_AGENT_DEVICE_EVENTS_PER_SECOND',
    appliesAt: 'start',
  }),
  mcpMaxResultBytes: {
    ...setting({
      schema: wholeNumber({ min: 1024, max: 8_388_608, what: 'the size of one MCP tool result (bytes)' }),
      label: 'MCP result size limit (bytes)',
      input: 'integer',
      help: `How much one MCP tool call may answer (as JSON); a larger answer fails the call. Empty: ${MCP_MAX_RESULT_BYTES.toLocaleString('en-US')} (256 KiB).`,
      flag: 'mcp-max-result-bytes',
      env: 'HOME_AGENT_MCP_MAX_RESULT_BYTES',
      appliesAt: 'turn',
    }),
    default: MCP_MAX_RESULT_BYTES,
  },
  // The MCP servers' own settings, declared in the MCP-client plugin's folder.
  ...mcpClientSettings,
  // Each way in's own settings (where its peer is, how it signs in), declared in its folder.
  ...BUILTIN_WAY_IN_SETTINGS,
} as const;

type Table = typeof settingsTable;
export type SettingKey = keyof Table;

/** The settings that are set; an unset key is absent (never `undefined`-valued, never `[]`). */
export type Settings = { [K in SettingKey]?: z.output<Table[K]['schema']> };

/** Every setting's key, in the form's order. */
export const SETTING_KEYS = Object.keys(settingsTable) as SettingKey[];

/** The settings that choose the model: a change to any of them is a change of model. */
export const MODEL_SETTING_KEYS = [
  'provider',
  'model',
  'baseUrl',
  'apiKeyEnv',
] as const satisfies readonly SettingKey[];
export type ModelSettingKey = (typeof MODEL_SETTING_KEYS)[number];

/** The settings that say how devices are reached besides their own ports (a broker): what `devices scan|pair` take as flags too. */
export const WAY_IN_SETTING_KEYS = Object.keys(BUILTIN_WAY_IN_SETTINGS) as (keyof typeof BUILTIN_WAY_IN_SETTINGS)[];

export const settingKeySchema = z.enum(SETTING_KEYS as [SettingKey, ...SettingKey[]]);

/** The settings whose entry names a default. */
type DefaultedKey = {
  [K in SettingKey]: Table[K] extends { default: unknown } ? K : never;
}[SettingKey];

/** A setting's value: the one set, else its entry's default (the one place that default lives). */
export function settingValue<K extends DefaultedKey>(settings: Settings, key: K): NonNullable<Settings[K]> {
  return (settings[key] ?? (settingsTable[key] as { default: unknown }).default) as NonNullable<Settings[K]>;
}

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(settingsTable, key);
}

/** The stored settings as they cross a transport: each key optional, each value checked by its own schema. */
export const settingsSchema = z.object(
  Object.fromEntries(SETTING_KEYS.map((key) => [key, settingsTable[key].schema.optional()])) as {
    [K in SettingKey]: z.ZodOptional<Table[K]['schema']>;
  },
);

/** One problem with a value, for the person: where in the value (empty for the whole), and what is wrong. */
export interface SettingIssue {
  path: string;
  message: string;
}

/** Checks one setting's value; the issues are the schema's own, written for people. */
export function checkSetting<K extends SettingKey>(
  key: K,
  value: unknown,
): { ok: true; value: NonNullable<Settings[K]> } | { ok: false; issues: SettingIssue[] } {
  const parsed = settingsTable[key].schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data as NonNullable<Settings[K]> };
  return {
    ok: false,
    issues: parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })),
  };
}

/**
 * Reads a setting from the text of a flag or an environment variable: integers as numbers, a tool
 * order as a JSON list, anything else as the text itself; then its schema decides.
 */
export function readSettingText<K extends SettingKey>(
  key: K,
  text: string,
): { ok: true; value: NonNullable<Settings[K]> } | { ok: false; issues: SettingIssue[] } {
  const input = settingsTable[key].input;
  let value: unknown = text;
  if (input === 'integer') value = /^\s*[+-]?\d+\s*$/.test(text) ? Number(text) : text;
  else if (input === 'lines') {
    try {
      value = JSON.parse(text) as unknown;
    } catch {
      return {
        ok: false,
        issues: [{ path: '', message: `a JSON list of tool names, e.g. '["lamp__set","${TOOL_ORDER_REST}"]'` }],
      };
    }
  }
  return checkSetting(key, value);
}
