/** Where MCP servers come from, and that edits to that file apply while the app runs. */
export function McpConfigFollowed() {
  return (
    <p className="side-hint" data-testid="mcp-config-followed">
      MCP servers come from <code>mcp.json</code> in the data folder (or the file given by <code>--mcp-config</code>):
      edits to it apply without a restart, between turns. A server whose command, args or URL changed must be trusted
      again.
    </p>
  );
}
