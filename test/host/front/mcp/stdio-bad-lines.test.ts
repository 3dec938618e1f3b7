import { PassThrough } from 'node:stream';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { serveMcpOverStdio } from '../../../../host/front/mcp/serve-mcp-over-stdio.ts';
import { startTestHost, tempDataDir } from '../../devices/host-rig.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The most a line about one bad input line may say on stderr. */
const SHORT_LINE = 200;
const PING = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`;

/** `serveMcpOverStdio` on pipes in this process, with every line it writes to stdout and stderr kept. */
async function serve() {
  const data = tempDataDir('home-agent-mcp-stdio-');
  cleanups.push(() => data.remove());
  const { host } = await startTestHost({ dataDir: data.dir });
  cleanups.push(() => host.dispose());
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const log: string[] = [];
  const controller = new AbortController();
  const ended = serveMcpOverStdio({
    home: host,
    stdin,
    stdout,
    signal: controller.signal,
    version: 'test',
    log: (line) => log.push(line),
  });
  cleanups.push(async () => {
    controller.abort();
    await ended;
  });
  const replies = createInterface({ input: stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<{ id: unknown; result?: unknown; error?: { code: number; message: string } }> => {
    const line = await replies.next();
    return JSON.parse(line.value as string) as { id: unknown };
  };
  return { stdin, next, log };
}

describe('home-agent mcp over stdio: a line that is not one JSON-RPC message', () => {
  it('answers each with exactly one JSON-RPC error (id null) and at most one short line on stderr, then goes on', async () => {
    const { stdin, next, log } = await serve();
    const cases: [string, number, RegExp][] = [
      ['this is not JSON', -32700, /not JSON/],
      ['{"jsonrpc":"2.0","id":3,"method":', -32700, /not JSON/],
      ['{"hello":"world"}', -32600, /not a JSON-RPC/],
      ['42', -32600, /not a JSON-RPC/],
      [
        '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]',
        -32600,
        /batch.*not supported.*2025-06-18/i,
      ],
    ];
    for (const [line, code, message] of cases) {
      const before = log.length;
      // A good message after the bad one: its answer must come second, so a missing error reply shows at once.
      stdin.write(`${line}\n${PING(7)}`);
      const reply = await next();
      expect(reply, line).toMatchObject({ jsonrpc: '2.0', id: null, error: { code } });
      expect(reply.error?.message, line).toMatch(message);
      expect(await next(), line).toMatchObject({ jsonrpc: '2.0', id: 7, result: {} });
      const said = log.slice(before);
      expect(said.length, line).toBeLessThanOrEqual(1);
      for (const entry of said) expect(entry.length, entry).toBeLessThanOrEqual(SHORT_LINE);
    }
  });
});
