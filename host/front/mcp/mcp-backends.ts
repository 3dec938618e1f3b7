import { PassThrough } from 'node:stream';
import type { Socket } from 'node:net';
import { readLines } from '../../link/link-lines.ts';
import { HOME_AGENT_VERSION } from '../../app/version.ts';
import { serveMcpOverStdio } from './serve-mcp-over-stdio.ts';
import type { ServedHome } from './mcp-session.ts';
import type { McpBackend } from './mcp-relay.ts';
import { lineSplitter } from '../../../core/text/line-splitter.ts';

/** The running host's `mcp` door as the relay's backend: it ends when the host goes away. */
export function socketBackend(socket: Socket): McpBackend {
  const listeners: ((line: string) => void)[] = [];
  readLines(socket, (line) => listeners.forEach((listener) => listener(line)));
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return {
    send: (line) => void (socket.writable && socket.write(`${line}\n`)),
    onLine: (listener) => void listeners.push(listener),
    ended,
    close: async () => {
      socket.end();
      await ended;
    },
  };
}

/** A session served by a host in this process (no host was running): it ends when closed. */
export function inProcessBackend(home: ServedHome, log: (line: string) => void): McpBackend {
  const input = new PassThrough();
  const output = new PassThrough();
  const listeners: ((line: string) => void)[] = [];
  output.setEncoding('utf8');
  output.on(
    'data',
    lineSplitter((line) => {
      if (line.trim() !== '') listeners.forEach((listener) => listener(line));
    }),
  );
  const stop = new AbortController();
  const ended = serveMcpOverStdio({
    home,
    stdin: input,
    stdout: output,
    signal: stop.signal,
    version: HOME_AGENT_VERSION,
    log,
  }).then(() => undefined);
  return {
    send: (line) => void (input.writable && input.write(`${line}\n`)),
    onLine: (listener) => void listeners.push(listener),
    ended,
    close: async () => {
      stop.abort();
      await ended;
    },
  };
}
