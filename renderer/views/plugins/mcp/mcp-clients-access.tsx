import { useAppStore } from '../../use-app-store.ts';
import './mcp-server-state.css';

/**
 * Where MCP clients reach this home (`serve --mcp`) and the credential they send, shown to the
 * person: only the web token's holder is told it. Nothing when this server serves no MCP.
 */
export function McpClientsAccess() {
  const access = useAppStore((state) => state.appInfo?.mcp);
  if (access === undefined) return null;
  return (
    <section className="mcp-clients" aria-label="MCP clients" data-testid="mcp-clients">
      <p className="mcp-clients-text">
        MCP clients (Claude Desktop, Cursor, VS Code) reach this home at{' '}
        <code data-testid="mcp-clients-url">{access.url}</code> with the header <code>Authorization: Bearer</code> and
        the MCP credential. It opens only that address: a client can list and call tools, never answer approvals or
        grant.
      </p>
      {access.credential !== undefined && (
        <details className="mcp-clients-credential">
          <summary>Show the MCP credential</summary>
          <code data-testid="mcp-clients-credential">{access.credential}</code>
        </details>
      )}
      {access.problem !== undefined && (
        <p className="side-error" role="alert" data-testid="mcp-clients-problem">
          {access.problem}
        </p>
      )}
    </section>
  );
}
