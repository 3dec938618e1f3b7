import type { Sequence } from './sequence-schema.ts';
import type { SequenceStore } from './sequence-store.ts';

/** A SequenceStore in a Map, for tests and embedders without a database. Keeps deep copies. */
export class InMemorySequenceStore implements SequenceStore {
  private readonly sequences = new Map<string, Sequence>();

  constructor(initial: Iterable<Sequence> = []) {
    for (const sequence of initial) this.sequences.set(sequence.name, structuredClone(sequence));
  }

  async list(): Promise<Sequence[]> {
    return [...this.sequences.values()]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((sequence) => structuredClone(sequence));
  }

  async get(name: string): Promise<Sequence | undefined> {
    const sequence = this.sequences.get(name);
    return sequence ? structuredClone(sequence) : undefined;
  }

  async save(sequence: Sequence): Promise<void> {
    this.sequences.set(sequence.name, structuredClone(sequence));
  }

  async delete(name: string): Promise<boolean> {
    return this.sequences.delete(name);
  }
}
