import { parseArgs } from 'node:util';
import { safeText } from '../../../core/text/safe-text.ts';
import type { Writable } from 'node:stream';
import { commonFlagOptions, pluginFlagOptions } from '../command-line/common-flag-options.ts';
import { UsageError, type CliIo } from '../command-line/cli-io.ts';
import { settingsTable } from '../../contract/settings-table.ts';
import { MCP_SETTINGS } from './mcp-help.ts';
import { resolveDataDir } from '../../config/data-dir.ts';
import { linkPathOf } from '../../link/link-path.ts';
import { openLinkDoor } from '../../link/find-home-holder.ts';
import { MAX_BODY_BYTES } from '../../config/max-body-bytes.ts';
import { filterJsonRpcLines } from './json-rpc-line-filter.ts';
import { McpRelay } from './mcp-relay.ts';
import { socketBackend } from './mcp-backends.ts';
import { homeShapingFlags } from '../command-line/home-shaping-flags.ts';
import { lineSplitter } from '../../../core/text/line-splitter.ts';

const mcpOptions = {
  ...Object.fromEntries(MCP_SETTINGS.map((key) => [settingsTable[key].flag, { type: 'string' as const }])),
  'data-dir': commonFlagOptions['data-dir'],
  sim: commonFlagOptions.sim,
  'sim-latency-ms': commonFlagOptions['sim-latency-ms'],
  device: commonFlagOptions.device,
  standalone: { type: 'boolean' },
  help: commonFlagOptions.help,
  ...pluginFlagOptions,
} as const;

/** How long a process that handed its home over waits for the new host to answer on the socket. */
const HANDOVER_WAIT_MS = 60_000;

/**
 * `home-agent mcp`: serves the home to one MCP client over stdio until it closes stdin (exit 0), or
 * sends a message over the size bound (exit 1). When a host of the same data folder runs (the window,
 * `serve`, npm start), the session goes through it — its devices, grants, approvals and journal;
 * otherwise this process hosts the home until a window takes it over. `--standalone` always hosts here.
 */
export async function runMcpCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args: argv, options: mcpOptions, strict: true });

  // What reaches stderr may quote a client or a device: shown by the one text rule, never obeyed by a terminal.
  const log = (line: string): void => void io.stderr.write(`home-agent mcp: ${safeText(line)}\n`);
  // stdout is the protocol's: anything a library prints goes to stderr instead while serving.
  const restoreConsole = consoleToStderr(io.stderr);
  const dataDir = resolveDataDir(values['data-dir']);
  const { path } = linkPathOf(dataDir);
  const stdout = io.stdout as Writable;
  const relay = new McpRelay((line) => void stdout.write(`${line}\n`));
  let end: 'client closed' | 'message too large' | undefined;
  const clientGone = new AbortController();
  const stopped = AbortSignal.any([io.signal, clientGone.signal]);
  const finish = (why: 'client closed' | 'message too large'): void => {
    end ??= why;
    clientGone.abort();
  };
  const lines = filterJsonRpcLines({
    input: process.stdin,
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
  lines.setEncoding('utf8');
  lines.on(
    'data',
    lineSplitter((line) => relay.fromClient(line)),
  );
  lines.once('end', () => finish('client closed'));
  process.stdin.once('close', () => finish('client closed'));
  const standalone = values.standalone === true;
  try {
    let waitForHandover = 0;
    let served = false;
    while (!stopped.aborted) {
      const opened = standalone
        ? undefined
        : await openRunningHost(path, waitForHandover > 0 ? Date.now() + waitForHandover : 0, stopped);
      waitForHandover = 0;
      if (opened && !opened.welcome.ok) throw new Error(opened.welcome.error);
      if (opened) {
        const shaping = homeShapingFlags(values, ['data-dir', 'standalone', 'help']);
        if (shaping.length > 0 && served) {
          // The session goes on through the host that took the home over: its own devices and settings now.
          log(`${shaping.join(', ')} no longer apply: ${opened.welcome.holder.command} serves the home now`);
        } else if (shaping.length > 0) {
          opened.socket.destroy();
          throw new UsageError(
            `${opened.welcome.holder.command} (pid ${opened.welcome.holder.pid}) runs this home (${dataDir}), so this session goes through it, with its devices and settings: ${shaping.join(', ')} would shape a home of this process's own. Leave ${shaping.length > 1 ? 'them' : 'it'} out, or add --standalone (this process then opens its own devices: those the host holds stay out of reach)`,
          );
        }
        log(
          `using the running host: ${opened.welcome.holder.command} (pid ${opened.welcome.holder.pid}), for ${dataDir}`,
        );
        served = true;
        await untilEither(relay.attach(socketBackend(opened.socket)), stopped, () => opened.socket.end());
        if (stopped.aborted) break;
        relay.endUnanswered(`${opened.welcome.holder.command} (pid ${opened.welcome.holder.pid}) stopped`);
        log(`${opened.welcome.holder.command} stopped: this process hosts the home now`);
        continue;
      }
      // The devices' code is loaded only when this process hosts the home: a relay needs none of it.
      const [{ hostHereUntilTaken }, { readCommonFlags }] = await Promise.all([
        import('./host-mcp-here.ts'),
        import('../command-line/common-flags.ts'),
      ]);
      const flags = readCommonFlags(values);
      const outcome = await hostHereUntilTaken({ flags, dataDir, relay, log, signal: stopped, standalone, io });
      if (outcome !== 'raced') served = true;
      if (outcome === 'taken') {
        relay.endUnanswered('the home was handed over to another host');
        waitForHandover = HANDOVER_WAIT_MS;
      }
    }
    return end === 'message too large' ? 1 : 0;
  } finally {
    process.stdin.destroy();
    restoreConsole();
  }
}

/** The host answering on the home's socket; with a deadline, keeps trying until it (the taker) answers. */
async function openRunningHost(path: string, deadline: number, signal: AbortSignal) {
  for (;;) {
    const opened = await openLinkDoor(path, 'tool-server', { command: 'home-agent mcp' });
    if (opened || Date.now() >= deadline || signal.aborted) return opened;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits for `work`, or for the signal (then calls `onAbort` and still waits for the work to end). */
async function untilEither(work: Promise<void>, signal: AbortSignal, onAbort: () => void): Promise<void> {
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  try {
    await work;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** Sends console.log/info/debug to `stderr` until the returned function is called. */
function consoleToStderr(stderr: NodeJS.WritableStream): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  const write = (...parts: unknown[]): void => void stderr.write(`${parts.map(String).join(' ')}\n`);
  console.log = write;
  console.info = write;
  console.debug = write;
  return () => Object.assign(console, saved);
}
