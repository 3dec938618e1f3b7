import { z } from 'zod';
import { StoreError } from './store-error.ts';

/** A stored row that no longer validates: which table, which row, and what is wrong with it. */
export interface InvalidRowReport {
  table: string;
  /** The row's key, e.g. `c1#12` (conversation and sequence number) or a settings key. */
  key: string;
  detail: string;
}

/** Receives rows that fail validation; without one, such a row throws StoreError `invalid_row`. */
export type InvalidRowHandler = (report: InvalidRowReport) => void;

export type StoredRowResult<T> = { ok: true; value: T } | { ok: false; report: InvalidRowReport };

/** Parses a stored JSON text through `schema`; never throws (a bad row becomes a report). */
export function parseStoredJson<S extends z.ZodType>(options: {
  schema: S;
  text: string;
  table: string;
  key: string;
}): StoredRowResult<z.output<S>> {
  const { table, key } = options;
  let raw: unknown;
  try {
    raw = JSON.parse(options.text);
  } catch (error) {
    return { ok: false, report: { table, key, detail: `not JSON (${(error as Error).message})` } };
  }
  const parsed = options.schema.safeParse(raw);
  if (!parsed.success)
    return { ok: false, report: { table, key, detail: z.prettifyError(parsed.error).replaceAll('\n', ' ') } };
  return { ok: true, value: parsed.data };
}

/** Hands a bad row to `onInvalidRow`, or throws it as StoreError `invalid_row` when there is none. */
export function reportInvalidRow(report: InvalidRowReport, onInvalidRow: InvalidRowHandler | undefined): void {
  if (onInvalidRow !== undefined) {
    onInvalidRow(report);
    return;
  }
  throw new StoreError({
    kind: 'invalid_row',
    detail: `row ${report.key} of ${report.table} does not validate: ${report.detail}`,
    hint: 'The row was kept as it is; report it, or pass onInvalidRow to skip such rows.',
  });
}

/**
 * How deep a stored value may nest. What the kernel stores is bounded far below this (arguments
 * and device frames at 64 levels, inside an event's few levels); a deeper value is refused before
 * `JSON.stringify` walks it, so it is a clean StoreError, never a stack overflow.
 */
export const MAX_STORED_DEPTH = 256;

/** JSON text of a value to store; bigint becomes a string; anything unserialisable or nested too deep is refused. */
export function toStoredJson(value: unknown, what: string): string {
  if (depthExceeds(value, MAX_STORED_DEPTH)) {
    throw new StoreError({
      kind: 'invalid_value',
      detail: `${what} cannot be stored: it is nested more than ${MAX_STORED_DEPTH} levels deep`,
    });
  }
  try {
    const text = JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));
    if (text === undefined) throw new TypeError('the value has no JSON form');
    return text;
  } catch (error) {
    throw new StoreError(
      { kind: 'invalid_value', detail: `${what} cannot be stored as JSON (${(error as Error).message})` },
      { cause: error },
    );
  }
}

/** True when objects and arrays nest more than `limit` levels inside `value`; a loop, never recursion. */
function depthExceeds(value: unknown, limit: number): boolean {
  const stack: { item: unknown; depth: number }[] = [{ item: value, depth: 0 }];
  while (stack.length > 0) {
    const { item, depth } = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    // A cycle is infinitely deep, so it ends here too.
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push({ item: child, depth: depth + 1 });
  }
  return false;
}
