import { safeText } from '../../../core/text/safe-text.ts';

/** The streams and stop signal a command runs with (injectable so tests run commands in-process). */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  signal: AbortSignal;
}

/** A wrong command line: printed with the usage, exit status 2 (services refuse a bad setting value with it too). */
export { UsageError } from '../../config/usage-error.ts';

/**
 * A command's log: one line on stderr per call, after `home-agent: `. Lines quote what devices say
 * (their events, refused hellos), so each is shown safely: it stays one line and moves no cursor.
 */
export function stderrLog(io: Pick<CliIo, 'stderr'>): (line: string) => void {
  return (line) => void io.stderr.write(`home-agent: ${safeText(line)}\n`);
}
