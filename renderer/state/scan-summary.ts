/**
 * Pure: what the Add-device list says of a scan, counting every choice it lists: the ports, and the
 * devices a way in found (behind a broker) — "5 ports found" above a list of 9 told the person wrong.
 */
export function scanSummary(counts: { ports: number; found: number }): string {
  const ports = `${counts.ports} port${counts.ports === 1 ? '' : 's'}`;
  const found = counts.found > 0 ? ` and ${counts.found} device${counts.found === 1 ? '' : 's'}` : '';
  return `${ports}${found} found; none was opened.`;
}
