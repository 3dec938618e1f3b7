// The closing line of `npm test` from the two runners' exit codes and JSON reports (pure).

/** The totals over both runners, and whether `npm test` passed (types in summarise-test-runs.d.mts). */
export function summariseTestRuns(vitest, playwright) {
  const v = vitest.report;
  const p = playwright.report?.stats;
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  if (v) {
    passed += v.numPassedTests;
    failed += v.numFailedTests;
    skipped += v.numPendingTests + (v.numTodoTests ?? 0);
  }
  if (p) {
    passed += p.expected;
    failed += p.unexpected + (p.flaky ?? 0);
    skipped += p.skipped;
  }
  // A runner that wrote no report, or failed with no failed test (a crashed worker, an error outside
  // any test), still failed: it counts once, and the line says so instead of reading as all green.
  const runnerErrors = [
    !v || (vitest.status !== 0 && v.numFailedTests === 0) ? 'Vitest' : undefined,
    !p || (playwright.status !== 0 && p.unexpected + (p.flaky ?? 0) === 0) ? 'Playwright' : undefined,
  ].filter(Boolean);
  failed += runnerErrors.length;
  const ok = vitest.status === 0 && playwright.status === 0 && failed === 0;
  const why =
    runnerErrors.length > 0 ? ` (${runnerErrors.join(' and ')} failed outside any test: see its output above)` : '';
  return { line: `${passed} passed, ${failed} failed, ${skipped} skipped${why}`, ok };
}
