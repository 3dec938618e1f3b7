import { utf8Length } from '../text/utf8-length.ts';

/** What a walk of a value as JSON found, stopping at the first bound it breaks. */
export interface JsonMeasure {
  /** Objects and arrays nest deeper than `maxDepth` (the walk stopped there). */
  tooDeep: boolean;
  /** The JSON text takes more than `maxBytes` UTF-8 bytes (the walk stopped there). */
  tooLarge: boolean;
  /** UTF-8 bytes of the JSON text written before the walk stopped: its whole size when no bound broke. */
  bytes: number;
  /** The start of the JSON text, at most `previewLength` characters. */
  preview: string;
}

/** An object or array being written: its keys (none for an array), the next item, its closing bracket. */
interface Frame {
  value: Record<string, unknown> | unknown[];
  keys: string[] | undefined;
  next: number;
  depth: number;
}

/**
 * Walks `value` as `JSON.stringify` would write it (undefined and functions skipped in objects,
 * `null` in arrays, non-finite numbers as `null`, `toJSON` honoured) with a loop, never recursion,
 * counting the UTF-8 bytes of the text and the nesting (the outer object or array is level 1), and
 * stops at the first level past `maxDepth` or byte past `maxBytes`: 60,000 levels or a cycle cost a
 * few dozen steps, a huge value at most `maxBytes` of work.
 */
export function measureJson(
  value: unknown,
  limits: { maxDepth: number; maxBytes?: number; previewLength?: number },
): JsonMeasure {
  const maxBytes = limits.maxBytes ?? Number.POSITIVE_INFINITY;
  const previewLength = limits.previewLength ?? 0;
  const measure: JsonMeasure = { tooDeep: false, tooLarge: false, bytes: 0, preview: '' };
  const write = (text: string): boolean => {
    measure.bytes += utf8Length(text);
    if (measure.preview.length < previewLength)
      measure.preview += text.slice(0, previewLength - measure.preview.length);
    if (measure.bytes > maxBytes) measure.tooLarge = true;
    return !measure.tooLarge;
  };
  const stack: Frame[] = [];
  /** Writes a scalar, or opens an object or array on the stack; false once a bound broke. */
  const visit = (item: unknown, depth: number): boolean => {
    const json = jsonValueOf(item);
    if (typeof json !== 'object' || json === null) return write(scalarText(json));
    if (depth + 1 > limits.maxDepth) {
      measure.tooDeep = true;
      return false;
    }
    const keys = Array.isArray(json)
      ? undefined
      : Object.keys(json).filter((key) => writable(jsonValueOf((json as Record<string, unknown>)[key])));
    stack.push({ value: json as Frame['value'], keys, next: 0, depth: depth + 1 });
    return write(keys === undefined ? '[' : '{');
  };
  if (!visit(value, 0)) return measure;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const length = frame.keys?.length ?? (frame.value as unknown[]).length;
    if (frame.next >= length) {
      stack.pop();
      if (!write(frame.keys === undefined ? ']' : '}')) return measure;
      continue;
    }
    const position = frame.next++;
    if (position > 0 && !write(',')) return measure;
    let item: unknown;
    if (frame.keys === undefined) item = (frame.value as unknown[])[position];
    else {
      const key = frame.keys[position] as string;
      if (!write(`${JSON.stringify(key)}:`)) return measure;
      item = (frame.value as Record<string, unknown>)[key];
    }
    if (!visit(item, frame.depth)) return measure;
  }
  return measure;
}

/** The value JSON.stringify writes for `item` (its `toJSON` when it has one). */
function jsonValueOf(item: unknown): unknown {
  if (typeof item === 'object' && item !== null && typeof (item as { toJSON?: unknown }).toJSON === 'function')
    return (item as { toJSON: () => unknown }).toJSON();
  return item;
}

/** Whether an object keeps this property in JSON (undefined, functions and symbols are left out). */
function writable(item: unknown): boolean {
  return item !== undefined && typeof item !== 'function' && typeof item !== 'symbol';
}

/** A scalar's JSON text; what JSON has no form for is `null` (as in an array). */
function scalarText(item: unknown): string {
  if (typeof item === 'string') return JSON.stringify(item);
  if (typeof item === 'number') return Number.isFinite(item) ? String(item) : 'null';
  if (typeof item === 'boolean') return item ? 'true' : 'false';
  // The store writes a bigint as its digits in quotes; counted the same way here.
  if (typeof item === 'bigint') return `"${item.toString()}"`;
  return 'null';
}
