import type { Socket } from 'node:net';
import { MAX_LINK_LINE_BYTES } from './link-messages.ts';
import { lineSplitter } from '../../core/text/line-splitter.ts';

/**
 * Reads the socket line by line (JSON Lines both ways), calling `onLine` for each; a line over
 * MAX_LINK_LINE_BYTES ends the connection, so neither side ever holds more. Returns a function that
 * stops reading.
 */
export function readLines(socket: Socket, onLine: (line: string) => void): () => void {
  const feed = lineSplitter((line) => {
    if (line.trim() !== '') onLine(line);
  });
  const onData = (chunk: Buffer | string): void => {
    if (feed(chunk.toString()) > MAX_LINK_LINE_BYTES)
      socket.destroy(new Error('a line on the home socket was too long'));
  };
  socket.setEncoding('utf8');
  socket.on('data', onData);
  // A socket whose first line was read is paused; reading starts once a listener is there.
  socket.resume();
  return () => void socket.off('data', onData);
}

/** Reads exactly the first line; what came after it is put back for the next reader. */
export function readFirstLine(socket: Socket, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const timer = setTimeout(() => finish(new Error(`no first line within ${timeoutMs / 1000} s`)), timeoutMs);
    const finish = (result: string | Error): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.pause();
      if (typeof result === 'string') resolve(result);
      else reject(result);
    };
    const onClose = (): void => finish(new Error('the connection closed before its first line'));
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      const newline = buffered.indexOf(0x0a);
      if (newline === -1) {
        if (buffered.length > 64 * 1024) finish(new Error('the first line was too long'));
        return;
      }
      // Bytes, not text: a character cut between two chunks is put back whole.
      if (newline + 1 < buffered.length) socket.unshift(buffered.subarray(newline + 1));
      finish(buffered.subarray(0, newline).toString('utf8'));
    };
    socket.on('data', onData);
    socket.once('close', onClose);
    // A socket an earlier reader paused flows again for this one.
    socket.resume();
  });
}

/** Writes one JSON value as a line; false when the socket is gone. */
export function writeLine(socket: Socket, value: unknown): boolean {
  if (socket.destroyed || !socket.writable) return false;
  socket.write(`${JSON.stringify(value)}\n`);
  return true;
}
