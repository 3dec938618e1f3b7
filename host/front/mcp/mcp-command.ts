import { parseArgs } from 'node:util';
import { safeText } from '../../../core/text/safe-text.ts';
import type { Writable } from 'node:stream';
import { commonFlagOptions, pluginFlagOptions, readCommonFlags } from '../command-line/common-flags.ts';
import { startHost } from '../../app/start-host.ts';
import type { CliIo } from '../command-line/cli-io.ts';
import { settingsTable } from '../../contract/settings-table.ts';
import { serveMcpOverStdio } from './serve-mcp-over-stdio.ts';
import { HOME_AGENT_VERSION } from '../../app/version.ts';
import { MCP_READY_WAIT_MS } from '../../plugins/mcp/mcp-ready-wait.ts';
import { MCP_SETTINGS } from './mcp-help.ts';

const mcpOptions = {
  ...Object.fromEntries(MCP_SETTINGS.map((key) => [settingsTable[key].flag, { type: 'string' as const }])),
  'data-dir': commonFlagOptions['data-dir'],
  sim: commonFlagOptions.sim,
  'sim-latency-ms': commonFlagOptions['sim-latency-ms'],
  device: commonFlagOptions.device,
  help: commonFlagOptions.help,
  ...pluginFlagOptions,
} as const;

/**
 * `home-agent mcp`: serves the home to one MCP client over stdio until it closes stdin (exit 0), or
 * sends a message over the size bound (exit 1).
 */
export async function runMcpCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args: argv, options: mcpOptions, strict: true });
  const flags = readCommonFlags(values);
  // What reaches stderr may quote a client or a device: shown by the one text rule, never obeyed by a terminal.
  const log = (line: string): void => void io.stderr.write(`home-agent mcp: ${safeText(line)}\n`);
  // stdout is the protocol's: anything a library prints goes to stderr instead while serving.
  const restoreConsole = consoleToStderr(io.stderr);
  try {
    const host = await startHost({
      ...flags,
      transport: 'tool-server',
      command: 'home-agent mcp',
      log,
      signal: io.signal,
      approvalPolicy: 'ask',
    });
    try {
      // The client lists the tools first: the MCP servers of mcp.json (or --mcp-config) are among
      // them, so it waits for each to be ready or failed (10 s at most), as ask does.
      for (const name of await host.pluginParts.whenSettled({ signal: io.signal }))
        log(`${name} is still starting after ${MCP_READY_WAIT_MS / 1000} s; its tools are listed once it is ready`);
      const end = await serveMcpOverStdio({
        home: host,
        stdin: process.stdin,
        stdout: io.stdout as Writable,
        signal: io.signal,
        version: HOME_AGENT_VERSION,
        log,
      });
      return end === 'message too large' ? 1 : 0;
    } finally {
      await host.dispose();
    }
  } finally {
    restoreConsole();
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
