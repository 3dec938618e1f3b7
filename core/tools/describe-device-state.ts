/** Words for a few readings every simulated and example device reports: the unit each is in. */
const UNITS: Readonly<Record<string, string>> = { brightness: '%', celsius: '°C', humidity: '%' };

/** A boolean field in words: `on` is on or off, `open` open or closed, any other its name and on or off (`relay 1 on`). */
function flag(key: string, value: boolean): string {
  if (key === 'on') return value ? 'on' : 'off';
  if (key === 'open') return value ? 'open' : 'closed';
  return `${key.replace(/_/g, ' ')} ${value ? 'on' : 'off'}`;
}

/**
 * Pure: what a device reports, as the end of a sentence for people ("off, brightness 100 %",
 * "21.5 °C, humidity 45 %"), the same in the window and the terminal: switches in words first, then
 * each reading with its name and unit. A value that is no object of plain fields is shown as JSON.
 */
export function describeDeviceState(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return JSON.stringify(value) ?? String(value);
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return 'done, with nothing more to report';
  const switches = entries
    .filter(([, item]) => typeof item === 'boolean')
    .map(([key, item]) => flag(key, item as boolean));
  const readings = entries
    .filter(([, item]) => typeof item !== 'boolean')
    .map(([key, item]) => {
      if (key === 'celsius' && typeof item === 'number') return `${item} °C`;
      const unit = typeof item === 'number' ? UNITS[key] : undefined;
      const shown =
        typeof item === 'string' ? `"${item}"` : typeof item === 'number' ? String(item) : JSON.stringify(item);
      return `${key.replace(/_/g, ' ')} ${shown}${unit ? ` ${unit}` : ''}`;
    });
  return [...switches, ...readings].join(', ');
}
