/**
 * The flags given on a command line (as `--name`) besides `allowed`: with a host already running the
 * home, these would shape a home of the process's own (its devices, settings, plugins), so a command
 * that goes through that host names them instead of quietly ignoring them.
 */
export function homeShapingFlags(values: Record<string, unknown>, allowed: readonly string[]): string[] {
  return Object.entries(values)
    .filter(([name, value]) => value !== undefined && value !== false && !allowed.includes(name))
    .map(([name]) => `--${name}`);
}
