/**
 * Watches the CLI's output streams. When the reader of stdout goes away (EPIPE: `home-agent export |
 * head -c 100`), the command is stopped through `stop` and the CLI ends quietly with status 0, as
 * Unix tools do; no stack trace. A write error of stderr has nobody left to tell and is ignored.
 * The listeners stay for the process's life: a failed write is reported after the command returned.
 */
export function watchOutput(
  streams: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
  stop: () => void,
): { readerGone(): boolean } {
  let gone = false;
  streams.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // EPIPE: the reader closed the pipe. Any other write error (EIO, ENOSPC) also means the output is lost: stop as well.
    gone = gone || error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED';
    if (!gone) streams.stderr.write(`home-agent: cannot write the output: ${error.message}\n`);
    stop();
  });
  streams.stderr.on('error', () => {
    // Nobody reads our messages any more; the exit status still tells.
  });
  return { readerGone: () => gone };
}
