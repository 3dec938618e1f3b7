/**
 * Pure: a one-line summary of a call's arguments, `key: value` in the model's key order, values as
 * compact JSON, cut at `maxLength` characters with an ellipsis.
 */
export function summarizeArgs(args: Record<string, unknown>, maxLength = 80): string {
  const text = Object.entries(args)
    .map(([key, value]) => `${key}: ${JSON.stringify(value) ?? String(value)}`)
    .join(', ');
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

/** Pure: a duration for people: `840 ms`, `1.25 s`, `2 min 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2).replace(/\.?0+$/, '')} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms - minutes * 60_000) / 1000)} s`;
}
