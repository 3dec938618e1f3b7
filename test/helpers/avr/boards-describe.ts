import { describe } from 'vitest';
import { boardPackagesInstallLine, missingBoardPackages, reportSkippedBoards } from './board-packages.ts';

/**
 * `describe` for tests that build firmware and run it in simavr: skipped, with the apt-get line
 * in its title and on stderr, when a Debian package they need is missing.
 */
export function describeBoards(title: string, body: () => void): void {
  const missing = missingBoardPackages();
  if (missing.length > 0) reportSkippedBoards(title);
  describe.skipIf(missing.length > 0)(
    missing.length > 0 ? `${title} (skipped, install: ${boardPackagesInstallLine(missing)})` : title,
    body,
  );
}
