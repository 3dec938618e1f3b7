import { PassThrough, type Readable } from 'node:stream';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** What is wrong with a line as a JSON-RPC message: its error code, the reply's message, a few words for the log. */
export interface LineProblem {
  code: -32700 | -32600;
  message: string;
  /** Says what the line was, in a few words, never quoting it. */
  what: string;
}

/** What is wrong with one line of the stdio transport, or undefined when it is one JSON-RPC message. */
export function lineProblemOf(line: string): LineProblem | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line) as unknown;
  } catch {
    return {
      code: -32700,
      message: 'Parse error: the line is not JSON. Send one JSON-RPC message per line.',
      what: 'was not JSON',
    };
  }
  if (Array.isArray(value))
    return {
      code: -32600,
      message:
        'Invalid Request: JSON-RPC batches (an array of messages) are not supported: MCP 2025-06-18 removed them. Send one message per line.',
      what: 'was a batch (not supported since MCP 2025-06-18)',
    };
  if (!JSONRPCMessageSchema.safeParse(value).success)
    return {
      code: -32600,
      message: 'Invalid Request: the line is not a JSON-RPC 2.0 request, notification or response.',
      what: 'was not a JSON-RPC message',
    };
  return undefined;
}

/**
 * Splits `input` into lines and passes on only those that are one JSON-RPC message, each as a line;
 * every other line goes to `refuse` with its number, and a line of only spaces is skipped. A line
 * longer than `maxLineBytes` calls `onTooLong` once and nothing more is read or held.
 */
export function filterJsonRpcLines(options: {
  input: Readable;
  maxLineBytes: number;
  refuse: (problem: LineProblem, lineNumber: number) => void;
  onTooLong: () => void;
}): Readable {
  const output = new PassThrough();
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNumber = 0;
  let stopped = false;
  const tooLong = (): void => {
    stopped = true;
    pending = [];
    options.onTooLong();
  };
  options.input.on('data', (data: Buffer | string) => {
    if (stopped) return;
    const chunk = typeof data === 'string' ? Buffer.from(data) : data;
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, newline);
      if (pendingBytes + piece.length > options.maxLineBytes) return tooLong();
      const line = Buffer.concat([...pending, piece])
        .toString('utf8')
        .replace(/\r$/, '');
      pending = [];
      pendingBytes = 0;
      start = newline + 1;
      lineNumber += 1;
      if (line.trim() === '') continue;
      const problem = lineProblemOf(line);
      if (problem === undefined) output.write(`${line}\n`);
      else options.refuse(problem, lineNumber);
    }
    const rest = chunk.subarray(start);
    if (pendingBytes + rest.length > options.maxLineBytes) return tooLong();
    if (rest.length > 0) {
      pending.push(rest);
      pendingBytes += rest.length;
    }
  });
  options.input.once('end', () => output.end());
  options.input.once('error', (error) => output.destroy(error));
  return output;
}
