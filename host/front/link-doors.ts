// What the front ends add to a window's host on the home's socket, for the window's composition
// (Electron's main process takes it from here; serve from front-ends.ts). A composition-root file.
import type { FrontEndDoors } from '../link/hold-window-home.ts';
import { mcpLinkDoor } from './mcp/mcp-link-door.ts';

/** The MCP session of a `home-agent mcp` that an MCP client started beside the window. */
export const FRONT_END_DOORS: FrontEndDoors = { toolServer: mcpLinkDoor };
