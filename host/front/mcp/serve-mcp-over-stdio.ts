import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { McpSession, type ServedHome } from './mcp-session.ts';
import { MAX_BODY_BYTES } from '../../config/max-body-bytes.ts';
import { filterJsonRpcLines } from './json-rpc-line-filter.ts';

/** Why serving over stdio ended. */
export type StdioEnd = 'client closed' | 'stopped' | 'message too large';

/**
 * Serves the home to one MCP client over stdin/stdout (the client started this process, as Claude
 * Desktop does): stdout carries the protocol only. A line that is not one JSON-RPC message (not JSON,
 * not JSON-RPC, a batch) is answered with one JSON-RPC error and one short line on stderr. A message
 * longer than MAX_BODY_BYTES (the web API's bound too) ends the session, so the reader never holds
 * more; so do stdin closing and the signal. Resolves once the session's running calls are journaled.
 */
export async function serveMcpOverStdio(options: {
  home: ServedHome;
  stdin: Readable;
  stdout: Writable;
  signal: AbortSignal;
  version: string;
  log: (line: string) => void;
}): Promise<StdioEnd> {
  const { stdin, stdout, log } = options;
  const session = new McpSession(options.home, { version: options.version, log });
  let finish: (why: StdioEnd) => void = () => undefined;
  const messages = filterJsonRpcLines({
    input: stdin,
    maxLineBytes: MAX_BODY_BYTES,
    refuse: (problem, lineNumber) => {
      stdout.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: problem.code, message: problem.message } })}\n`,
      );
      log(`the MCP client's line ${lineNumber} ${problem.what}: answered with error ${problem.code}`);
    },
    onTooLong: () => {
      log(`an MCP message was longer than ${MAX_BODY_BYTES} bytes: closing the session`);
      finish('message too large');
    },
  });
  // The filter passes whole lines of at most MAX_BODY_BYTES, each with its newline.
  const transport = new StdioServerTransport(messages, stdout, { maxBufferSize: MAX_BODY_BYTES + 1 });
  let end: StdioEnd | undefined;
  const ended = new Promise<StdioEnd>((resolve) => {
    finish = (why: StdioEnd): void => {
      end ??= why;
      resolve(end);
    };
    transport.onclose = () => finish('client closed');
    stdin.once('end', () => finish('client closed'));
    stdin.once('close', () => finish('client closed'));
    if (options.signal.aborted) finish('stopped');
    else options.signal.addEventListener('abort', () => finish('stopped'), { once: true });
  });
  // connect() keeps the handlers set above and calls them before its own.
  await session.server.connect(transport);
  const why = await ended;
  await session.close();
  // Nothing more is read: an open stdin would keep the process alive after a refusal or a stop.
  stdin.destroy();
  return why;
}
