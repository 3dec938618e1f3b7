import { PLUGIN_READY_WAIT_MS } from '../plugin-parts.ts';

/** How long `ask` and `mcp` wait for the enabled MCP servers to be ready or failed before the first request. */
export const MCP_READY_WAIT_MS = PLUGIN_READY_WAIT_MS;
