/** A duration as the journal keeps it: milliseconds to two decimals (timings finer than 10 µs are noise). */
export function roundMs(ms: number): number {
  return Math.round(ms * 100) / 100;
}
