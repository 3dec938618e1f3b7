import { describe, expect, it } from 'vitest';
import { summariseTestRuns } from '../../scripts/summarise-test-runs.mjs';

const vitestReport = (passed: number, failed: number) => ({
  numPassedTests: passed,
  numFailedTests: failed,
  numPendingTests: 0,
  numTodoTests: 0,
});
const playwrightReport = (expected: number, unexpected: number) => ({
  stats: { expected, unexpected, flaky: 0, skipped: 0 },
});

describe("npm test's closing line", () => {
  it('adds both runners when both ran green', () => {
    expect(
      summariseTestRuns({ status: 0, report: vitestReport(10, 0) }, { status: 0, report: playwrightReport(3, 0) }),
    ).toEqual({ line: '13 passed, 0 failed, 0 skipped', ok: true });
  });

  it('counts failed tests as they are, with no extra runner failure', () => {
    expect(
      summariseTestRuns({ status: 1, report: vitestReport(8, 2) }, { status: 0, report: playwrightReport(3, 0) }),
    ).toEqual({ line: '11 passed, 2 failed, 0 skipped', ok: false });
  });

  it('counts a runner that failed outside any test once, and says which', () => {
    expect(
      summariseTestRuns({ status: 1, report: vitestReport(10, 0) }, { status: 0, report: playwrightReport(3, 0) }),
    ).toEqual({
      line: '13 passed, 1 failed, 0 skipped (Vitest failed outside any test: see its output above)',
      ok: false,
    });
  });

  it('counts a runner that wrote no report once, not twice', () => {
    expect(summariseTestRuns({ status: 1, report: undefined }, { status: 0, report: playwrightReport(3, 0) })).toEqual({
      line: '3 passed, 1 failed, 0 skipped (Vitest failed outside any test: see its output above)',
      ok: false,
    });
  });
});
