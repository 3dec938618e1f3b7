// Types for summarise-test-runs.mjs (plain JavaScript: `npm test` runs it before any TypeScript loader).
export interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests?: number;
}
export interface PlaywrightReport {
  stats?: { expected: number; unexpected: number; flaky?: number; skipped: number };
}
export declare function summariseTestRuns(
  vitest: { status: number | null; report: VitestReport | undefined },
  playwright: { status: number | null; report: PlaywrightReport | undefined },
): { line: string; ok: boolean };
