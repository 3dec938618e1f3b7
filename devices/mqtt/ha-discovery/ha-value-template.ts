/** A template this host can evaluate: the payload as is, or one value of its JSON by a path of keys. */
export type HaValueTemplate = { kind: 'value' } | { kind: 'json'; path: string[] };

const VALUE = /^\{\{\s*value\s*\}\}$/;
const VALUE_JSON = /^\{\{\s*value_json((?:\.[A-Za-z_][A-Za-z0-9_]*|\[\s*'[^'\\]*'\s*\]|\[\s*"[^"\\]*"\s*\])+)\s*\}\}$/;
const STEP = /\.([A-Za-z_][A-Za-z0-9_]*)|\[\s*'([^'\\]*)'\s*\]|\[\s*"([^"\\]*)"\s*\]/g;

/**
 * Reads a discovery `value_template` as far as this host goes: `{{ value }}` and `{{ value_json.a.b }}`
 * (or `value_json['a']`). Anything else (filters, `| float`, conditions, arithmetic) is a Jinja
 * program this host does not run: undefined, and the device is not offered.
 */
export function parseHaValueTemplate(template: string): HaValueTemplate | undefined {
  const text = template.trim();
  if (VALUE.test(text)) return { kind: 'value' };
  const match = VALUE_JSON.exec(text);
  if (!match) return undefined;
  const path = [...match[1]!.matchAll(STEP)].map((step) => step[1] ?? step[2] ?? step[3] ?? '');
  return { kind: 'json', path };
}

/** The value a template takes from a payload: its text, or the JSON value at its path; undefined when there is none. */
export function applyHaValueTemplate(
  template: HaValueTemplate,
  payload: { text: string; json: () => unknown },
): unknown {
  if (template.kind === 'value') return payload.text;
  let current = payload.json();
  for (const key of template.path) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    if (!Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
