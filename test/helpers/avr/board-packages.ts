import { existsSync } from 'node:fs';

/** The Debian packages the board tests need, each checked by a file it provides (as `.ci/run` does). */
const NEEDS: readonly { file: string; debian: string }[] = [
  { file: '/usr/bin/avr-g++', debian: 'gcc-avr' },
  { file: '/usr/bin/avr-size', debian: 'binutils-avr' },
  { file: '/usr/lib/avr/include/avr/io.h', debian: 'avr-libc' },
  { file: '/usr/share/arduino/hardware/arduino/avr/cores/arduino/Arduino.h', debian: 'arduino-core-avr' },
  { file: '/usr/include/simavr/sim_avr.h', debian: 'libsimavr-dev' },
  { file: '/usr/include/libelf.h', debian: 'libelf-dev' },
  { file: '/usr/bin/gcc', debian: 'gcc' },
];

/** The Debian packages that are missing (none on CI, where `.ci/run` installs them). */
export function missingBoardPackages(): string[] {
  return [...new Set(NEEDS.filter((need) => !existsSync(need.file)).map((need) => need.debian))];
}

/** The line that installs what is missing; tests print it when they skip. */
export function boardPackagesInstallLine(missing = missingBoardPackages()): string {
  return `sudo apt-get install -y gcc-avr avr-libc arduino-core-avr simavr libsimavr-dev libelf-dev${missing.includes('gcc') ? ' gcc' : ''}`;
}

/** Says once, on stderr, why the board tests skip: they need the packages of `boardPackagesInstallLine`. */
export function reportSkippedBoards(what: string): void {
  const missing = missingBoardPackages();
  if (missing.length === 0) return;
  process.stderr.write(
    `${what} skipped: missing ${missing.join(', ')}. Install with: ${boardPackagesInstallLine(missing)}\n`,
  );
}
