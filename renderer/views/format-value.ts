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

/** Pure: a device's state in one line: `on: true, brightness: 100` for an object, its JSON otherwise. */
export function describeState(value: unknown): string {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return '(empty)';
    return entries.map(([key, item]) => `${key}: ${JSON.stringify(item) ?? String(item)}`).join(', ');
  }
  return JSON.stringify(value) ?? String(value);
}
