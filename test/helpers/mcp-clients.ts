import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { homeAgentCommand } from './compiled-entries.ts';
import { REPO_ROOT } from './run-cli.ts';

/** An MCP client of the SDK connected to a Home Agent server, with what went wrong on its side. */
export interface ConnectedClient {
  client: Client;
  /** Errors the client's transport reported (a line on stdout that was not JSON-RPC, say). */
  errors: Error[];
  /** What the server wrote to stderr so far (stdio only). */
  stderr(): string;
  /** Resolves once the server's stderr holds `text` (stdio only): checked at each chunk it writes. */
  untilStderr(text: string): Promise<void>;
  /** One tool call, its result as the SDK parsed it. */
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

function connected(
  client: Client,
  errors: Error[],
  stderr: () => string,
  untilStderr: (text: string) => Promise<void> = () => Promise.reject(new Error('no stderr over HTTP')),
): ConnectedClient {
  return {
    client,
    errors,
    stderr,
    untilStderr,
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: () => client.close(),
  };
}

/** The SDK's Client over stdio, against `home-agent mcp ARGS` started as its child (as Claude Desktop does). */
export async function connectOverStdio(options: { args: string[]; clientName?: string }): Promise<ConnectedClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...homeAgentCommand(), 'mcp', ...options.args],
    cwd: REPO_ROOT,
    env: Object.fromEntries(
      Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
    stderr: 'pipe',
  });
  let stderr = '';
  const waiters = new Set<{ text: string; resolve: () => void }>();
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const waiter of waiters)
      if (stderr.includes(waiter.text)) {
        waiters.delete(waiter);
        waiter.resolve();
      }
  });
  const untilStderr = (text: string): Promise<void> =>
    stderr.includes(text) ? Promise.resolve() : new Promise((resolve) => waiters.add({ text, resolve }));
  const errors: Error[] = [];
  const client = new Client({ name: options.clientName ?? 'test-client', version: '1.0.0' });
  client.onerror = (error) => errors.push(error);
  try {
    // Starting the host with simulated devices can take a while on a busy machine.
    await client.connect(transport, { timeout: 60_000 });
  } catch (error) {
    // The SDK closes the transport and loses the child when connect fails: end it by its pid.
    if (transport.pid !== null) process.kill(transport.pid, 'SIGKILL');
    throw new Error(`home-agent mcp did not start: ${(error as Error).message}\n${stderr}`, { cause: error });
  }
  return connected(client, errors, () => stderr, untilStderr);
}

/** The SDK's Client over Streamable HTTP, against `/mcp` of a `serve --mcp`. */
export async function connectOverHttp(options: {
  url: string;
  token?: string;
  headers?: Record<string, string>;
  clientName?: string;
}): Promise<ConnectedClient> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  const transport = new StreamableHTTPClientTransport(new URL(options.url), { requestInit: { headers } });
  const errors: Error[] = [];
  const client = new Client({ name: options.clientName ?? 'test-client', version: '1.0.0' });
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return connected(client, errors, () => '');
}

/** The text of a call result's first text block. */
export function textOf(result: CallToolResult): string {
  const first = result.content.find((block) => block.type === 'text');
  return first?.type === 'text' ? first.text : '';
}
