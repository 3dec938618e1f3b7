import { z } from 'zod';
import { EXAMPLE_API_KEY_ENV, providerSchema, type ModelProvider } from '../../core/models/provider-defaults.ts';
import { PROVIDER_FACTS, PROVIDER_SETTINGS, WITHOUT_A_CHOICE_IDS } from '../../core/models/provider-facts.ts';
import type { ProviderFacts } from '../../core/models/provider-manifest.ts';
import { assertToolOrderShape, TOOL_ORDER_REST, ToolOrderError } from '../../core/tools/order-tools.ts';
import { wholeNumber, type SettingDeclaration, type SettingInputKind } from '../../devices/links/way-in-setting.ts';
import { BUILTIN_WAY_IN_SETTINGS } from '../../devices/ways-in/builtin-way-in-settings.ts';
import { BUILTIN_PLUGIN_SETTINGS, BUILTIN_TOOL_CALLERS } from './builtin/builtin-plugin-contract.ts';
import { DEFAULT_MAX_TOOL_ARGUMENT_BYTES } from '../../core/tools/argument-bounds.ts';
import { DEFAULT_TOOL_TIMEOUT_MS } from '../../core/tools/tool-timeout.ts';
import { DEFAULT_EARLY_TOOL_START, DEFAULT_MAX_STEPS } from '../../core/agent/turn-defaults.ts';
import { DEFAULT_REPLY_MAX_BYTES, DEFAULT_REPLY_TIMEOUT_MS } from '../../core/agent/reply-limits.ts';
import { DEFAULT_PERSONA } from '../../core/prompt/assemble-prompt.ts';
import { DEFAULT_DEVICE_EVENTS_PER_SECOND } from '../../devices/registry/event-rate-limit.ts';
import { DEFAULT_PROMPT_DEVICES, PROMPT_DEVICES_MODES } from '../../core/prompt/rooms-section.ts';

/** How a setting is edited in the form (declared with the shape of a setting, in devices/links/way-in-setting.ts). */
export type { SettingInputKind };

/**
 * One setting, described once: the store, the merge of flags over stored values, the CLI,
 * Electron's start-up and the renderer's form are all derived from these entries. The ways in
 * declare theirs with the same shape (a way in lives below the host, so the shape lives there).
 */
export type SettingSpec<S extends z.ZodType = z.ZodType> = SettingDeclaration<S>;

/**
 * A setting whose unset value the code reads from here (`settingValue`), and nowhere else. Every row
 * is made by this or by settingWithoutDefault, so none can leave its default out.
 */
function settingWithDefault<S extends z.ZodType>(
  spec: SettingSpec<S> & { default: z.output<S> },
): SettingSpec<S> & { default: z.output<S> } {
  return spec;
}

/**
 * A setting with no value of its own while unset: `defaultFrom` says what applies instead (the
 * provider's, the model's, none), in words its help repeats, so every row declares its default.
 */
function settingWithoutDefault<S extends z.ZodType>(
  spec: SettingSpec<S> & { default: undefined; defaultFrom: string },
): SettingSpec<S> & { default: undefined; defaultFrom: string } {
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

/** What each wire format's facts say of one field, by provider name (the form shows it while that provider is chosen). */
function byProvider(pick: (facts: ProviderFacts) => string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(PROVIDER_FACTS).map(([provider, facts]) => [provider as ModelProvider, pick(facts)]),
  );
}

/** What applies while a row with no default of its own is unset, in the words its help says after "empty:". */
const UNSET = {
  baseUrl: 'the provider’s usual address',
  toolOrder: 'plain alphabetical order',
  concurrencyCap: 'every call of a parallel reply runs at once',
  contextTokens: 'as the server or its maker says, or as learned from a refusal',
} as const;

/**
 * Every setting, in the form's order. Adding a setting is one entry here plus its use.
 * The API key itself is never a setting: only the name of the environment variable that holds it.
 */
export const settingsTable = {
  provider: settingWithoutDefault({
    schema: z.enum(providerSchema.options, { error: `the provider is one of ${providerSchema.options.join(', ')}` }),
    label: 'Provider',
    input: 'select',
    options: providerSchema.options,
    help: `Which kind of model server to use; ${WITHOUT_A_CHOICE_IDS.fallback} needs none.`,
    dependsOn: {
      setting: 'provider',
      hints: byProvider((facts) => `Which servers speak it and what to give: ${facts.docsSection}.`),
    },
    flag: 'provider',
    env: 'HOME_AGENT_PROVIDER',
    appliesAt: 'turn',
    default: undefined,
    defaultFrom: `a model server found on this machine, else the ${WITHOUT_A_CHOICE_IDS.fallback}`,
  }),
  model: settingWithoutDefault({
    schema: z.string().trim().min(1, 'name a model, e.g. llama3.1').max(200, 'a model name has at most 200 characters'),
    label: 'Model',
    input: 'text',
    placeholder: 'e.g. gpt-4o-mini, llama3.1',
    dependsOn: { setting: 'provider', placeholders: byProvider((facts) => facts.placeholders.model) },
    valueName: 'M',
    flag: 'model',
    env: 'HOME_AGENT_MODEL',
    appliesAt: 'turn',
    default: undefined,
    defaultFrom: `none (a provider other than the ${WITHOUT_A_CHOICE_IDS.fallback} needs one); with no provider either, the first model of a server found`,
  }),
  baseUrl: settingWithoutDefault({
    schema: z
      .url({
        protocol: /^https?$/,
        error: 'a web address starting with http:// or https://, e.g. http://127.0.0.1:11434/v1',
      })
      .max(2000, 'a web address has at most 2,000 characters'),
    label: 'Base URL',
    input: 'text',
    placeholder: UNSET.baseUrl,
    help: `Where the model server answers; empty: ${UNSET.baseUrl}.`,
    dependsOn: { setting: 'provider', placeholders: byProvider((facts) => facts.placeholders.baseUrl) },
    valueName: 'URL',
    flag: 'base-url',
    env: 'HOME_AGENT_BASE_URL',
    appliesAt: 'turn',
    default: undefined,
    defaultFrom: UNSET.baseUrl,
  }),
  apiKeyEnv: settingWithoutDefault({
    schema: z
      .string()
      .max(200, 'a variable name has at most 200 characters')
      .regex(
        /^[A-Za-z_][A-Za-z0-9_]*$/,
        `the name of an environment variable: letters, digits and _, not starting with a digit (e.g. ${EXAMPLE_API_KEY_ENV})`,
      ),
    label: 'API key variable',
    input: 'text',
    placeholder: 'the provider’s usual variable',
    help: 'The name of the environment variable that holds the key. The key itself is never stored here.',
    dependsOn: { setting: 'provider', placeholders: byProvider((facts) => facts.placeholders.apiKeyEnv) },
    valueName: 'VAR',
    flag: 'api-key-env',
    env: 'HOME_AGENT_API_KEY_ENV',
    appliesAt: 'turn',
    default: undefined,
    defaultFrom: 'the provider’s usual variable, else the key kept in the keychain',
  }),
  persona: settingWithDefault({
    schema: z.string().max(20_000, 'the persona has at most 20,000 characters'),
    label: 'Persona',
    input: 'textarea',
    help: 'Added to the system prompt.',
    valueName: 'TEXT',
    flag: 'persona',
    env: 'HOME_AGENT_PERSONA',
    appliesAt: 'turn',
    default: DEFAULT_PERSONA,
  }),
  toolOrder: settingWithoutDefault({
    schema: toolOrderSchema,
    label: 'Tool order',
    input: 'lines',
    placeholder: `lamp__set\n${TOOL_ORDER_REST}`,
    help: `One tool name per line. ${TOOL_ORDER_REST} must appear exactly once: unlisted tools go there, alphabetically. Empty: ${UNSET.toolOrder}.`,
    valueName: "'<JSON list>'",
    flag: 'tool-order',
    env: 'HOME_AGENT_TOOL_ORDER',
    appliesAt: 'turn',
    default: undefined,
    defaultFrom: UNSET.toolOrder,
  }),
  maxSteps: settingWithDefault({
    schema: wholeNumber({ min: 1, max: 100, what: 'the step limit' }),
    label: 'Max steps',
    input: 'integer',
    help: 'Model replies per turn, 1–100.',
    flag: 'max-steps',
    env: 'HOME_AGENT_MAX_STEPS',
    appliesAt: 'turn',
    default: DEFAULT_MAX_STEPS,
  }),
  toolTimeoutMs: settingWithDefault({
    schema: wholeNumber({ min: 1, max: 3_600_000, what: 'the tool timeout (ms)' }),
    label: 'Tool timeout (ms)',
    input: 'integer',
    help: `How long one tool call may run, in milliseconds; empty: ${DEFAULT_TOOL_TIMEOUT_MS.toLocaleString('en')}.`,
    flag: 'tool-timeout-ms',
    env: 'HOME_AGENT_TOOL_TIMEOUT_MS',
    appliesAt: 'turn',
    default: DEFAULT_TOOL_TIMEOUT_MS,
  }),
  concurrencyCap: settingWithoutDefault({
    schema: wholeNumber({ min: 1, max: 256, what: 'the cap on parallel calls' }),
    label: 'Parallel calls at most',
    input: 'integer',
    help: `Empty: ${UNSET.concurrencyCap}.`,
    flag: 'concurrency-cap',
    env: 'HOME_AGENT_CONCURRENCY_CAP',
    appliesAt: 'turn',
    default: undefined,
    defaultFrom: UNSET.concurrencyCap,
  }),
  replyTimeoutMs: settingWithDefault({
    schema: wholeNumber({ min: 1000, max: 3_600_000, what: 'the reply deadline (ms)' }),
    label: 'Reply deadline (ms)',
    input: 'integer',
    help: `How long one model reply may take in all; empty: ${DEFAULT_REPLY_TIMEOUT_MS.toLocaleString('en')} (5 minutes).`,
    flag: 'reply-timeout-ms',
    env: 'HOME_AGENT_REPLY_TIMEOUT_MS',
    appliesAt: 'turn',
    default: DEFAULT_REPLY_TIMEOUT_MS,
  }),
  replyMaxBytes: settingWithDefault({
    schema: wholeNumber({ min: 1024, max: 67_108_864, what: 'the reply size limit (bytes)' }),
    label: 'Reply size limit (bytes)',
    input: 'integer',
    help: `How much text and tool arguments one model reply may carry; empty: ${DEFAULT_REPLY_MAX_BYTES.toLocaleString('en')} (1 MiB).`,
    flag: 'reply-max-bytes',
    env: 'HOME_AGENT_REPLY_MAX_BYTES',
    appliesAt: 'turn',
    default: DEFAULT_REPLY_MAX_BYTES,
  }),
  // The built-in plugins' rows at their places in the form, each declared in its plugin's folder.
  ...BUILTIN_PLUGIN_SETTINGS.afterReplyLimits,
  contextTokens: settingWithoutDefault({
    schema: wholeNumber({ min: 1024, max: 10_000_000, what: 'the context window (tokens)' }),
    label: 'Context window (tokens)',
    input: 'integer',
    help: `How many tokens the model takes in one request; older turns that do not fit are not sent. Empty: ${UNSET.contextTokens}.`,
    flag: 'context-tokens',
    env: 'HOME_AGENT_CONTEXT_TOKENS',
    appliesAt: 'turn',
    default: undefined,
    defaultFrom: UNSET.contextTokens,
  }),
  // The model providers' own settings, declared in each provider's folder.
  ...PROVIDER_SETTINGS,
  ...BUILTIN_PLUGIN_SETTINGS.afterContext,
  maxToolArgumentBytes: settingWithDefault({
    schema: wholeNumber({ min: 1024, max: 4_194_304, what: 'the size of one call’s arguments (bytes)' }),
    label: 'Tool arguments: size limit (bytes)',
    input: 'integer',
    help: `How large one tool call’s arguments may be, as JSON, whoever made the call (the model, ${BUILTIN_TOOL_CALLERS}); a larger call is refused before it runs and only its start is kept in the journal. Empty: ${DEFAULT_MAX_TOOL_ARGUMENT_BYTES.toLocaleString('en')} (64 KiB).`,
    flag: 'max-tool-argument-bytes',
    env: 'HOME_AGENT_MAX_TOOL_ARGUMENT_BYTES',
    appliesAt: 'turn',
    default: DEFAULT_MAX_TOOL_ARGUMENT_BYTES,
  }),
  earlyToolStart: settingWithDefault({
    schema: z.enum(['on', 'off'], { error: 'early tool start is on or off' }),
    label: 'Start tools while the reply streams',
    input: 'select',
    options: ['on', 'off'],
    help: `on: a call the model has finished starts at once, one at a time in order, while the rest of the reply streams; off: nothing runs before the reply ends. Empty: ${DEFAULT_EARLY_TOOL_START}.`,
    flag: 'early-tool-start',
    env: 'HOME_AGENT_EARLY_TOOL_START',
    appliesAt: 'turn',
    default: DEFAULT_EARLY_TOOL_START,
  }),
  deviceEventsPerSecond: settingWithDefault({
    schema: wholeNumber({ min: 1, max: 10_000, what: 'the events per device per second' }),
    label: 'Device events per second',
    input: 'integer',
    help: `Events one device may announce per second; the excess is dropped and counted. Empty: ${DEFAULT_DEVICE_EVENTS_PER_SECOND.toLocaleString('en')}.`,
    flag: 'device-events-per-second',
    env: 'HOME_AGENT_DEVICE_EVENTS_PER_SECOND',
    appliesAt: 'start',
    default: DEFAULT_DEVICE_EVENTS_PER_SECOND,
  }),
  promptDevices: settingWithDefault({
    schema: z.enum(PROMPT_DEVICES_MODES, {
      error: `the devices in the prompt are ${PROMPT_DEVICES_MODES.join(' or ')}`,
    }),
    label: 'Devices in the prompt',
    input: 'select',
    options: [...PROMPT_DEVICES_MODES],
    help: `all: every device on its own line, then one line per room; rooms-first: the rooms with their counts, and the model reads a room's devices with home_list_devices (a home of many devices in a small window). Empty: ${DEFAULT_PROMPT_DEVICES}.`,
    flag: 'prompt-devices',
    env: 'HOME_AGENT_PROMPT_DEVICES',
    appliesAt: 'turn',
    default: DEFAULT_PROMPT_DEVICES,
  }),
  ...BUILTIN_PLUGIN_SETTINGS.afterDevices,
  // Each way in's own settings (where its peer is, how it signs in), declared in its folder.
  ...BUILTIN_WAY_IN_SETTINGS,
} as const;

type Table = typeof settingsTable;
export type SettingKey = keyof Table;

/** The rows that leave their default out (neither a value nor `default: undefined` with `defaultFrom`): none compiles. */
type WithoutDeclaredDefault = { [K in SettingKey]: Table[K] extends { default: unknown } ? never : K }[SettingKey];
const everyRowDeclaresItsDefault: [WithoutDeclaredDefault] extends [never] ? true : WithoutDeclaredDefault = true;
void everyRowDeclaresItsDefault;

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

/** The settings whose entry names a value of its own (not `default: undefined`). */
type DefaultedKey = {
  [K in SettingKey]: Table[K] extends { default: infer D } ? ([D] extends [undefined] ? never : K) : never;
}[SettingKey];

/** What `settingValue` gives for a key: never undefined where its entry has a value of its own. */
export type SettingValue<K extends SettingKey> = K extends DefaultedKey ? NonNullable<Settings[K]> : Settings[K];

/**
 * A setting's value: the one set, else its entry's default (the one place that default lives);
 * undefined for an unset setting whose entry has none of its own (its `defaultFrom` says what applies).
 * The one reader of an entry's default.
 */
export function settingValue<K extends SettingKey>(settings: Settings, key: K): SettingValue<K> {
  return (settings[key] ?? (settingsTable[key] as { default?: unknown }).default) as SettingValue<K>;
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
