import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { McpSession, type ServedHome } from './mcp-session.ts';
import { MAX_BODY_BYTES } from '../../web/web-server.ts';

/** Why serving over stdio ended. */
export type StdioEnd = 'client closed' | 'stopped' | 'message too large';

/**
 * Serves the home to one MCP client over stdin/stdout (the client started this process, as Claude
 * Desktop does): stdout carries the protocol only. A message longer than MAX_BODY_BYTES (the web
 * API's bound too) ends the session, so the reader never holds more; so do stdin closing and the
 * signal. Resolves once the session's running calls are journaled.
 */
export async function serveMcpOverStdio(options: {
  home: ServedHome;
  stdin: Readable;
  stdout: Writable;
  signal: AbortSignal;
  version: string;
  log: (line: string) => void;
}): Promise<StdioEnd> {
  const { stdin, log } = options;
  const session = new McpSession(options.home, { version: options.version, log });
  const transport = new StdioServerTransport(stdin, options.stdout, { maxBufferSize: MAX_BODY_BYTES });
  let end: StdioEnd | undefined;
  const ended = new Promise<StdioEnd>((resolve) => {
    const finish = (why: StdioEnd): void => {
      end ??= why;
      resolve(end);
    };
    transport.onclose = () => finish('client closed');
    // Other errors (a line that is not JSON-RPC) are the session's to log; it goes on.
    transport.onerror = (error) => {
      if (!/exceeded maximum size/.test(error.message)) return;
      log(`an MCP message was longer than ${MAX_BODY_BYTES} bytes: closing the session`);
      finish('message too large');
    };
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
