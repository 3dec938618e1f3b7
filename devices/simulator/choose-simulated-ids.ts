import type { SimulatedKind } from './device-catalog.ts';

/**
 * Pure: the ids of simulated devices, `<kind>-<n>` numbered per kind in order, skipping the ids in
 * `taken` (used by something running now). The ids this simulator had before (`previous`, one per
 * kind in the same order) are kept where they are still free, so a restart does not rename its
 * devices. With nothing taken and nothing before: `lamp-1`, `lamp-2`, `thermometer-1`, …
 */
export function chooseSimulatedIds(options: {
  kinds: readonly SimulatedKind[];
  taken: ReadonlySet<string>;
  previous?: readonly string[];
}): string[] {
  const { kinds, taken } = options;
  const previous = options.previous?.length === kinds.length ? options.previous : undefined;
  const used = new Set<string>();
  const kept = kinds.map((_, index) => {
    const before = previous?.[index];
    if (before === undefined || taken.has(before) || used.has(before)) return undefined;
    used.add(before);
    return before;
  });
  return kinds.map((kind, index) => {
    const before = kept[index];
    if (before !== undefined) return before;
    let number = 1;
    while (taken.has(`${kind}-${number}`) || used.has(`${kind}-${number}`)) number += 1;
    const id = `${kind}-${number}`;
    used.add(id);
    return id;
  });
}
