import { PROVIDERS, TOOL_ORDER_REST } from '../../host/contract/api-contract.ts';

/** The rest entry of a tool order and the model providers, as the contract gives them. */
export { TOOL_ORDER_REST };
export const PROVIDER_OPTIONS = PROVIDERS;

/** How a setting is edited: its input, and how its text becomes the stored value. */
export type SettingFieldKind = 'select' | 'text' | 'textarea' | 'lines' | 'integer';

/** One field of the settings form. */
export interface SettingField {
  key: SettingKey;
  label: string;
  kind: SettingFieldKind;
  hint?: string;
  /** Read once when the app starts: a change applies at the next start. */
  restartRequired?: boolean;
  placeholder?: string;
}

/** Every setting of the host's settings table, in the form's order. */
export const settingFields = [
  {
    key: 'provider',
    label: 'Provider',
    kind: 'select',
    restartRequired: true,
    hint: 'Flags given to home-agent at start (--provider, --model) win over these.',
  },
  { key: 'model', label: 'Model', kind: 'text', restartRequired: true, placeholder: 'e.g. gpt-4o-mini, llama3.1' },
  { key: 'baseUrl', label: 'Base URL', kind: 'text', restartRequired: true, placeholder: 'http://127.0.0.1:11434/v1' },
  {
    key: 'apiKeyEnv',
    label: 'API key variable',
    kind: 'text',
    restartRequired: true,
    placeholder: 'OPENAI_API_KEY',
    hint: 'The name of the environment variable that holds the key. The key itself is never stored here.',
  },
  { key: 'persona', label: 'Persona', kind: 'textarea', hint: 'Added to the system prompt.' },
  {
    key: 'toolOrder',
    label: 'Tool order',
    kind: 'lines',
    placeholder: `lamp__set\n${TOOL_ORDER_REST}`,
    hint: `One tool name per line. ${TOOL_ORDER_REST} must appear exactly once: unlisted tools go there, alphabetically. Empty: plain alphabetical order.`,
  },
  { key: 'maxSteps', label: 'Max steps', kind: 'integer', hint: 'Model replies per turn, 1–100.' },
  { key: 'toolTimeoutMs', label: 'Tool timeout (ms)', kind: 'integer' },
  {
    key: 'concurrencyCap',
    label: 'Parallel calls at most',
    kind: 'integer',
    hint: 'Empty: every call of a parallel reply runs at once.',
  },
] as const satisfies readonly SettingField[];

export type SettingKey =
  | 'provider'
  | 'model'
  | 'baseUrl'
  | 'apiKeyEnv'
  | 'persona'
  | 'toolOrder'
  | 'maxSteps'
  | 'toolTimeoutMs'
  | 'concurrencyCap';

/** Pure: a stored value as the text its field shows (empty when unset or not of the field's shape). */
export function formatSettingValue(kind: SettingFieldKind, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (kind === 'lines') return Array.isArray(value) ? value.map(String).join('\n') : '';
  if (kind === 'integer') return typeof value === 'number' ? String(value) : '';
  return typeof value === 'string' ? value : '';
}

/** A field's text read as the value to send: `null` unsets the setting. */
export type ParsedSetting = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Pure: the value a field's text stands for. Empty text unsets (`null`); a tool order is one name
 * per line, blank lines dropped; an integer must be written as one. Everything else the host
 * checks itself, so its message is the one the person reads.
 */
export function parseSettingText(kind: SettingFieldKind, text: string): ParsedSetting {
  if (kind === 'lines') return parseToolOrderText(text);
  const trimmed = kind === 'textarea' ? text : text.trim();
  if (trimmed.trim() === '') return { ok: true, value: null };
  if (kind === 'integer') {
    return /^[+-]?\d+$/.test(trimmed)
      ? { ok: true, value: Number(trimmed) }
      : { ok: false, error: 'Enter a whole number, or leave it empty for the default.' };
  }
  return { ok: true, value: trimmed };
}

/** Pure: a tool-order textarea as the list it stands for (names trimmed, blank lines dropped), or `null` when empty. */
export function parseToolOrderText(text: string): ParsedSetting {
  const names = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return { ok: true, value: names.length === 0 ? null : names };
}

/**
 * Pure: the host's refusal as the line beside the field. The store prefixes its message with its
 * own vocabulary (`Store invalid_value: setting toolOrder: ✖ …`); the person needs only the rest.
 */
export function settingErrorText(key: string, message: string): string {
  const prefix = `Store invalid_value: setting ${key}: `;
  const rest = message.startsWith(prefix) ? message.slice(prefix.length) : message;
  return rest
    .replace(/^✖\s*/, '')
    .replaceAll(/\s*✖\s*/g, ' ')
    .trim();
}
