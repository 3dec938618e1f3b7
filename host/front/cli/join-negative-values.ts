/**
 * Pure: `--flag -5` becomes `--flag=-5` (before any `--`). Node's argument parser takes a value that
 * starts with a dash for an option and would say the flag "takes no value" or needs one; joined, the
 * flag's own check says what is wrong with the number (out of range, must be positive).
 */
export function joinNegativeValues(argv: readonly string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index]!;
    if (argument === '--') return [...joined, ...argv.slice(index)];
    const next = argv[index + 1];
    if (/^--[\w-]+$/.test(argument) && next !== undefined && /^-\d+(?:\.\d+)?$/.test(next)) {
      joined.push(`${argument}=${next}`);
      index += 1;
    } else joined.push(argument);
  }
  return joined;
}
