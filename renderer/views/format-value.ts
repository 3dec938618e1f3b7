/** Pure: a value as readable JSON, indented, for the expanded row (never `[object Object]`). */
export function prettyJson(value: unknown): string {
  if (value === undefined) return '(nothing)';
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    // A value the host sent is JSON by construction; this only guards against the impossible.
    return String(value);
  }
}
