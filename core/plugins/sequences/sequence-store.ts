import type { Sequence } from './sequence-schema.ts';

/**
 * Where sequences live. Core ships the in-memory one; the host's SQLite store implements the same
 * interface. `save` creates or replaces by name; values are validated before they reach a store,
 * and a store that reads from disk re-parses them with `sequenceSchema`.
 */
export interface SequenceStore {
  /** Every saved sequence, by name ascending. */
  list(): Promise<Sequence[]>;
  get(name: string): Promise<Sequence | undefined>;
  save(sequence: Sequence): Promise<void>;
  /** True when a sequence of that name existed. */
  delete(name: string): Promise<boolean>;
}
