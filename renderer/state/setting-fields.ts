import {
  SETTING_KEYS,
  settingsTable,
  type SettingInputKind,
  type SettingIssue,
  type SettingKey,
} from '../../host/contract/api-contract.ts';

export type { SettingKey };

/** One field of the settings form, from the host's settings table. */
export interface SettingField {
  key: SettingKey;
  label: string;
  kind: SettingInputKind;
  options?: readonly string[];
  hint?: string;
  /** Read once when the app starts: a change applies at the next start. */
  restartRequired: boolean;
  /** Its command-line flag (`--provider`), named when this run's flag wins over the stored value. */
  flag: string;
  placeholder?: string;
  /** Its placeholder and hint while another setting has a given value (the provider chosen). */
  dependsOn?: {
    setting: SettingKey;
    placeholders?: Readonly<Record<string, string>>;
    hints?: Readonly<Record<string, string>>;
  };
}

/** Every setting of the host's settings table, in the form's order. */
export const settingFields: readonly SettingField[] = SETTING_KEYS.map((key) => {
  const spec = settingsTable[key];
  return {
    key,
    label: spec.label,
    kind: spec.input,
    restartRequired: spec.appliesAt === 'start',
    flag: `--${spec.flag}`,
    ...('options' in spec && spec.options ? { options: spec.options } : {}),
    ...('help' in spec && spec.help ? { hint: spec.help } : {}),
    ...('placeholder' in spec && spec.placeholder ? { placeholder: spec.placeholder } : {}),
    ...('dependsOn' in spec && spec.dependsOn
      ? { dependsOn: { ...spec.dependsOn, setting: spec.dependsOn.setting as SettingKey } }
      : {}),
  };
});

/** Pure: a field's placeholder and hint while the setting it depends on reads `other` (a form's draft, else stored). */
export function fieldTexts(field: SettingField, other: string): { placeholder?: string; hint?: string } {
  const placeholder = field.dependsOn?.placeholders?.[other] ?? field.placeholder;
  const hint = field.dependsOn?.hints?.[other] ?? field.hint;
  return { ...(placeholder !== undefined ? { placeholder } : {}), ...(hint !== undefined ? { hint } : {}) };
}

/** Pure: a stored value as the text its field shows (empty when unset or not of the field's shape). */
export function formatSettingValue(kind: SettingInputKind, value: unknown): string {
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
export function parseSettingText(kind: SettingInputKind, text: string): ParsedSetting {
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
 * Pure: the host's refusal as the line beside the field: its issues (each written for the person)
 * as one sentence; the message itself when the host gave none. A first word that is a name
 * (`toolOrder`) keeps its case.
 */
export function settingErrorText(failure: { message: string; issues?: readonly SettingIssue[] | undefined }): string {
  const messages = failure.issues?.map((issue) => issue.message) ?? [];
  const text = (messages.length > 0 ? messages.join('; ') : failure.message).trim();
  const sentence = /^[a-z]+\b/.test(text) ? text.charAt(0).toUpperCase() + text.slice(1) : text;
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}
