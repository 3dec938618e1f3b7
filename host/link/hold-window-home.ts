import type { Host } from '../app/create-host.ts';
import { HOME_AGENT_VERSION } from '../app/version.ts';
import { hostCommandName } from '../devices/host-announcement.ts';
import { apiDoor } from './api-door.ts';
import { turnDoor } from './turn-door.ts';
import { holdHomeLink, HomeHeldError, type HeldHomeLink, type LinkDoor } from './hold-home-link.ts';

/** The doors other front ends add to a window's host (the MCP session of a `home-agent mcp` beside it). */
export interface FrontEndDoors {
  toolServer?: (host: Host, log: (line: string) => void) => LinkDoor;
}

/**
 * A window's host (serve, the desktop window) holds its home's socket for as long as it runs, so
 * every other command of the home goes through it: the API, `ask`'s turns, and what other front
 * ends add. On failure the host is disposed and another window's hold is explained.
 */
export async function holdWindowHome(
  host: Host,
  options: { dataDir: string; command: string; doors: FrontEndDoors; log: (line: string) => void },
): Promise<HeldHomeLink> {
  try {
    return await holdHomeLink({
      dataDir: options.dataDir,
      holder: {
        pid: process.pid,
        command: hostCommandName(options.command),
        kind: 'window',
        version: HOME_AGENT_VERSION,
      },
      doors: {
        api: apiDoor(host),
        turn: turnDoor(host),
        ...(options.doors.toolServer ? { 'tool-server': options.doors.toolServer(host, options.log) } : {}),
      },
      log: options.log,
    });
  } catch (error) {
    await host.dispose();
    return explainHeld(options.dataDir)(error);
  }
}

/** Another window's host runs this home: who, and what to do instead of starting a second one. */
export function explainHeld(dataDir: string): (error: unknown) => never {
  return (error) => {
    if (!(error instanceof HomeHeldError)) throw error;
    throw new Error(
      `${error.message} for ${dataDir}: open that one, or stop it first; for another home give --data-dir`,
    );
  };
}
