import type { HostAgentEvent } from '../../host/contract/api-contract.ts';
import { canonicalJson } from '../../host/contract/canonical-json.ts';

/**
 * Pure: the events to fold after a journal that was fetched while live events kept arriving.
 * Live events the journal already holds are dropped (matched as a multiset on their canonical
 * JSON, so two equal deltas both count); the rest follow the journal in arrival order.
 */
export function mergeJournal(options: {
  journal: readonly HostAgentEvent[];
  buffered: readonly HostAgentEvent[];
}): HostAgentEvent[] {
  const remaining = new Map<string, number>();
  for (const event of options.journal) {
    const key = canonicalJson(event);
    remaining.set(key, (remaining.get(key) ?? 0) + 1);
  }
  const merged = [...options.journal];
  for (const event of options.buffered) {
    const key = canonicalJson(event);
    const count = remaining.get(key) ?? 0;
    if (count > 0) remaining.set(key, count - 1);
    else merged.push(event);
  }
  return merged;
}
