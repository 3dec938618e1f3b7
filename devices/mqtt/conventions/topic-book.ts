import { Emitter } from '../../../core/events/emitter.ts';
import type { BaseTopic } from './own-topics.ts';

/**
 * The base topics every family of one broker connection announces, by family, so a device of one
 * convention cannot publish under a device of another. Tells its listeners only when a family's bases
 * changed (each family re-reads its own devices then, and writes here only from its announcements).
 */
export class TopicBook {
  private readonly byFamily = new Map<object, BaseTopic[]>();
  private readonly changes = new Emitter<void>({ name: 'base topics' });
  private index: Map<string, string[]> | undefined;

  /** Replaces the bases family `family` (its catalogue) announces. */
  set(family: object, bases: readonly BaseTopic[]): void {
    const before = this.byFamily.get(family) ?? [];
    const same =
      before.length === bases.length &&
      before.every((entry, index) => entry.base === bases[index]?.base && entry.path === bases[index]?.path);
    if (same) return;
    this.byFamily.set(family, [...bases]);
    this.index = undefined;
    this.changes.emit();
  }

  /** Every base announced, by any family, with the paths of the devices that announce it. */
  byBase(): ReadonlyMap<string, readonly string[]> {
    if (this.index) return this.index;
    const index = new Map<string, string[]>();
    for (const { base, path } of [...this.byFamily.values()].flat())
      index.set(base, [...(index.get(base) ?? []), path]);
    this.index = index;
    return index;
  }

  onChange(listener: () => void): () => void {
    return this.changes.subscribe(listener);
  }
}
