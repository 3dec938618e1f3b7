import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';

/**
 * Waits until a process is up: resolves once `stream` (its stdout or stderr) has printed text that
 * matches `ready`; rejects, with what it printed, when it exits (or fails to start) first. `onLine`
 * sees every whole line, before and after.
 */
export function untilPrinted(options: {
  child: ChildProcess;
  stream: Readable;
  ready: RegExp;
  /** What the error calls the process (`mosquitto`). */
  name: string;
  onLine?: (line: string) => void;
}): Promise<RegExpExecArray> {
  const { child, stream, ready } = options;
  return new Promise((resolve, reject) => {
    let printed = '';
    let partial = '';
    stream.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      printed += text;
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) options.onLine?.(line);
      const found = ready.exec(printed);
      if (found) resolve(found);
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`${options.name} exited (${code ?? signal}) before it was up:\n${printed}`)),
    );
    child.once('error', reject);
  });
}
