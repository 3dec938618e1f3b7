/**
 * A wrong value in what started the host (a flag, an environment variable): the front end that
 * read it shows it with its usage (the CLI: exit status 2).
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
