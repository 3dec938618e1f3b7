import type { Socket } from 'node:net';
import { startHost } from '../../app/start-host.ts';
import { HOME_AGENT_VERSION } from '../../app/version.ts';
import type { CommonFlags } from '../command-line/common-flags.ts';
import type { CliIo } from '../command-line/cli-io.ts';
import { MCP_READY_WAIT_MS } from '../../plugins/mcp/mcp-ready-wait.ts';
import { holdHomeLink, HomeHeldError, type HeldHomeLink } from '../../link/hold-home-link.ts';
import { apiDoor } from '../../link/api-door.ts';
import { turnDoor } from '../../link/turn-door.ts';
import { writeLine } from '../../link/link-lines.ts';
import { hostCommandName } from '../../devices/host-announcement.ts';
import { mcpLinkDoor } from './mcp-link-door.ts';
import { inProcessBackend } from './mcp-backends.ts';
import type { McpRelay } from './mcp-relay.ts';

/**
 * No host runs for the data folder: this process hosts the home — its devices, store and plugins —
 * and serves its client from it, holding the home's socket so other processes of the home go
 * through it, until its client leaves ('ended') or a window's host takes the home over ('taken':
 * the session's running calls end as the ToolAPI says, the devices are closed, then the taker is
 * told). With --standalone it holds no socket. 'raced': another host got the socket first.
 */
export async function hostHereUntilTaken(options: {
  flags: CommonFlags;
  dataDir: string;
  relay: McpRelay;
  log: (line: string) => void;
  signal: AbortSignal;
  standalone: boolean;
  io: CliIo;
}): Promise<'ended' | 'taken' | 'raced'> {
  const { log, signal } = options;
  const host = await startHost({
    ...options.flags,
    dataDir: options.dataDir,
    transport: 'tool-server',
    command: 'home-agent mcp',
    log,
    signal,
    approvalPolicy: 'ask',
  });
  let held: HeldHomeLink | undefined;
  let takenBy: Socket | undefined;
  let onTaken: () => void = () => undefined;
  const taken = new Promise<void>((resolve) => (onTaken = resolve));
  // Ends the wait for the MCP servers still starting when this host goes (its client left, or a window took the home).
  const hostGone = new AbortController();
  try {
    // The client is served at once, from the tools there are now (a paired device's from its pinned
    // declaration): an MCP server of mcp.json (or --mcp-config) still starting adds its tools when it
    // is ready, announced with notifications/tools/list_changed.
    void host.pluginParts.whenSettled({ signal: AbortSignal.any([signal, hostGone.signal]) }).then((starting) => {
      if (hostGone.signal.aborted) return;
      for (const name of starting)
        log(`${name} is still starting after ${MCP_READY_WAIT_MS / 1000} s; its tools are listed once it is ready`);
    });
    if (!options.standalone) {
      try {
        held = await holdHomeLink({
          dataDir: options.dataDir,
          holder: {
            pid: process.pid,
            command: hostCommandName('home-agent mcp'),
            kind: 'tool-server',
            version: HOME_AGENT_VERSION,
          },
          doors: {
            api: apiDoor(host),
            turn: turnDoor(host),
            'tool-server': mcpLinkDoor(host, log),
            take: (socket) => {
              takenBy = socket;
              onTaken();
            },
          },
          log,
        });
      } catch (error) {
        if (error instanceof HomeHeldError) return 'raced';
        throw error;
      }
      log(
        `no Home Agent host was running for ${options.dataDir}: this process hosts the home (its devices) until the window or serve takes it over`,
      );
    }
    const backend = inProcessBackend(host, log);
    const attached = options.relay.attach(backend);
    const stopped = new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
    const why = await Promise.race([
      attached.then(() => 'ended' as const),
      taken.then(() => 'taken' as const),
      stopped.then(() => 'ended' as const),
    ]);
    await held?.close(takenBy ? { keep: takenBy } : {});
    await backend.close();
    await attached;
    return why;
  } finally {
    hostGone.abort();
    await host.dispose();
    if (takenBy) {
      writeLine(takenBy, { released: true });
      takenBy.end();
    }
  }
}
