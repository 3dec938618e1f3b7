import { describe, expect, it } from 'vitest';
import { MAX_STORED_DEPTH, toStoredJson } from '../../../host/store/parse-stored-row.ts';
import { StoreError } from '../../../host/store/store-error.ts';

/** An array `depth` levels deep, built with a loop (a recursive builder would overflow first). */
function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}

describe('toStoredJson', () => {
  it('refuses a value nested 100,000 deep with a StoreError naming the depth, never a stack overflow', () => {
    let caught: unknown;
    try {
      toStoredJson({ type: 'tool/end', result: nested(100_000) }, 'the tool/end event');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(StoreError);
    expect(caught).toMatchObject({ kind: 'invalid_value' });
    expect((caught as Error).message).toContain(
      `the tool/end event cannot be stored: it is nested more than ${MAX_STORED_DEPTH} levels deep`,
    );
  });

  it('stores a value exactly at the limit, and refuses one level more', () => {
    expect(toStoredJson(nested(MAX_STORED_DEPTH), 'v')).toBe(
      `${'['.repeat(MAX_STORED_DEPTH)}1${']'.repeat(MAX_STORED_DEPTH)}`,
    );
    expect(() => toStoredJson(nested(MAX_STORED_DEPTH + 1), 'v')).toThrow(StoreError);
  });

  it('refuses a cyclic value as a StoreError', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => toStoredJson(cyclic, 'v')).toThrow(StoreError);
  });
});
