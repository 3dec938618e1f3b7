/** The streams and stop signal a command runs with (injectable so tests run commands in-process). */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  signal: AbortSignal;
}

/** A wrong command line: printed with the usage, exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
