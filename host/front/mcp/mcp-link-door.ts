import type { Socket } from 'node:net';
import type { LinkDoor } from '../../link/hold-home-link.ts';
import { HOME_AGENT_VERSION } from '../../app/version.ts';
import type { ServedHome } from './mcp-session.ts';

/**
 * The `mcp` door of a running host: `home-agent mcp` started beside it (by Claude Desktop, Cursor, …)
 * relays its client's lines here, and this host serves the session as over stdio — its devices,
 * grants, approvals (answered in this host's windows) and journal. The client's rules are those of
 * every MCP client: no answers, no grants, its wait and its bound of open questions.
 */
export function mcpLinkDoor(home: ServedHome, log: (line: string) => void): LinkDoor {
  return async (socket: Socket) => {
    // The MCP SDK is loaded by the first `home-agent mcp` that comes, not by every window and serve.
    const { serveMcpOverStdio } = await import('./serve-mcp-over-stdio.ts');
    const served = serveMcpOverStdio({
      home,
      stdin: socket,
      stdout: socket,
      signal: new AbortController().signal,
      version: HOME_AGENT_VERSION,
      log: (line) => log(`home-agent mcp (relayed): ${line}`),
    });
    // The first line (the hello) paused the socket; the session's reader is attached now.
    socket.resume();
    await served;
    socket.end();
  };
}
