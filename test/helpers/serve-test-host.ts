import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHost, type Host, type HostOptions } from '../../host/app/create-host.ts';
import { startWebServer, type WebServer } from '../../host/front/web/web-server.ts';
import { ScriptedModel, type Script } from '../../core/models/scripted/scripted-model.ts';
import { McpHttpEndpoint } from '../../host/front/mcp/mcp-http-endpoint.ts';
import { MCP_TOKEN } from '../../host/front/mcp/mcp-token.ts';
import { readOrCreateToken } from '../../host/secrets/token-file.ts';
import { withMcpAccess } from '../../host/front/mcp/with-mcp-access.ts';

type WebServerOptions = Parameters<typeof startWebServer>[0];

/**
 * A host on a fresh data folder with a scripted model, and its web server on a free loopback port
 * serving that folder. The server closes, the host is disposed and the folder removed through
 * `cleanups` (a test file's list, run last-in first-out after each test).
 */
export async function serveTestHost(
  cleanups: (() => Promise<void> | void)[],
  options: {
    /** The temp data folder's name prefix. */
    dataDirPrefix: string;
    token: string;
    replies?: Script['replies'];
    attachDevices?: HostOptions['attachDevices'];
    /** An index.html written into the data folder, which the server serves. */
    indexHtml?: string;
    /** Send the host's notices on the live stream too. */
    notices?: boolean;
    /**
     * Serve MCP at `/mcp` too, as `serve --mcp` does, with the MCP credential of the data folder;
     * optionally with the endpoint's clock and log.
     */
    mcp?: boolean | { now?: () => number; log?: (line: string) => void };
    server?: Pick<WebServerOptions, 'allowedHosts' | 'now' | 'host'>;
  },
): Promise<{
  host: Host;
  server: WebServer;
  dataDir: string;
  /** With `mcp`: the endpoint and the MCP credential it takes now. */
  mcp?: { endpoint: McpHttpEndpoint; token: string };
}> {
  const dataDir = mkdtempSync(path.join(tmpdir(), options.dataDirPrefix));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  if (options.indexHtml !== undefined) writeFileSync(path.join(dataDir, 'index.html'), options.indexHtml);
  const host = await createHost({
    dataDir,
    transport: 'web',
    model: new ScriptedModel({ replies: options.replies ?? [] }),
    ...(options.attachDevices ? { attachDevices: options.attachDevices } : {}),
    log: () => {},
    version: 'test',
  });
  cleanups.push(() => host.dispose());
  const mcpOptions = options.mcp === true ? {} : options.mcp || undefined;
  const mcp = mcpOptions && {
    token: readOrCreateToken(dataDir, MCP_TOKEN),
    endpoint: new McpHttpEndpoint(host, { version: 'test', log: () => {}, dataDir, ...mcpOptions }),
  };
  const server = await startWebServer({
    handlers: mcp ? withMcpAccess(host.handlers, mcp.endpoint) : host.handlers,
    bus: host.events,
    ...(options.notices ? { notices: host.notices } : {}),
    ...(mcp ? { endpoints: [mcp.endpoint] } : {}),
    staticDir: dataDir,
    port: 0,
    token: options.token,
    ...options.server,
  });
  cleanups.push(() => server.close());
  mcp?.endpoint.servedAt(`${server.url}mcp`);
  return { host, server, dataDir, ...(mcp ? { mcp } : {}) };
}
