/** How long `ask` and `mcp` wait for the enabled MCP servers to be ready or failed before the first request. */
export const MCP_READY_WAIT_MS = 10_000;
