import { spawn } from 'node:child_process';
import { access } from 'node:fs/promises';

/** A running `socat` joining two pseudo-terminals reachable at two link paths; `close()` kills it. */
export interface PseudoTerminalPair {
  readonly hostPath: string;
  readonly devicePath: string;
  /** Resolves when socat has exited (killed, or died by itself). */
  readonly exited: Promise<void>;
  close(): Promise<void>;
}

/** Options of a pseudo-terminal pair. */
export interface PseudoTerminalPairOptions {
  hostPath: string;
  devicePath: string;
  socatPath?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Starts `socat -d -d pty,raw,echo=0,link=A pty,raw,echo=0,link=B` and resolves once socat says
 * its transfer loop started and both links exist. Rejects (and kills socat) on timeout or abort.
 */
export async function startPseudoTerminalPair(options: PseudoTerminalPairOptions): Promise<PseudoTerminalPair> {
  // socat runs under a small sh guard that holds our stdin pipe: when this process dies, even by
  // SIGKILL, the pipe reaches EOF and the guard kills socat, so no pseudo-terminal outlives its owner.
  const guard = 'exec 3<&0; "$0" "$@" & child=$!; (read -r _ <&3; kill "$child" 2>/dev/null) & wait "$child"';
  const child = spawn(
    'sh',
    [
      '-c',
      guard,
      options.socatPath ?? 'socat',
      '-d',
      '-d',
      `pty,raw,echo=0,link=${options.hostPath}`,
      `pty,raw,echo=0,link=${options.devicePath}`,
    ],
    { stdio: ['pipe', 'ignore', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  const close = async (): Promise<void> => {
    // Ending stdin makes the guard kill socat; the guard exits when socat has.
    child.stdin.end();
    await exited;
  };
  let stderr = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => fail(new Error(`socat did not start within ${options.timeoutMs ?? 5000} ms: ${stderr.trim()}`)),
        options.timeoutMs ?? 5000,
      );
      const onAbort = (): void => fail(new Error('aborted while starting socat'));
      options.signal?.addEventListener('abort', onAbort, { once: true });
      function fail(error: Error): void {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        reject(error);
      }
      child.once('error', (error) => fail(error));
      child.once('exit', (code) => fail(new Error(`socat exited with ${code}: ${stderr.trim()}`)));
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (text: string) => {
        stderr = (stderr + text).slice(-4000);
        if (!stderr.includes('starting data transfer loop')) return;
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        Promise.all([access(options.hostPath), access(options.devicePath)]).then(() => resolve(), reject);
      });
    });
  } catch (error) {
    await close();
    throw error;
  }
  // Keep draining stderr so socat never blocks on a full pipe.
  child.stderr.resume();
  return { hostPath: options.hostPath, devicePath: options.devicePath, exited, close };
}
