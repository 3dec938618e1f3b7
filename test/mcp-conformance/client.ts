// The client entry of the official MCP conformance suite: `node bin/run-ts.mjs test/mcp-conformance/client.ts URL`.
// The suite starts a server for its scenario (MCP_CONFORMANCE_SCENARIO; MCP_CONFORMANCE_CONTEXT holds
// JSON for scenarios that pass some) and runs this with its URL. It drives the real plugin host, as a
// person's mcp.json server is: a temp data folder whose mcp.json names the server (Streamable HTTP),
// the server trusted, initialize and the tool list, then the call the scenario expects through the
// ToolAPI (its gates and pipeline). This entry plays the person: it approves the call (as
// `ask --approve-all`), accepts a server's question with the form as shown (its defaults), and signs
// in where the server asks (auth/*): its browser fetches the authorization address and follows the
// redirect to the host's loopback listener, which completes the sign-in as a person's browser would.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Host } from '../../host/app/create-host.ts';
import type { McpElicitationFrontEnd } from '../../host/plugins/mcp/mcp-elicitation.ts';
import type { McpConnection } from '../../host/plugins/mcp/mcp-connection.ts';
import type { McpSignInFrontEnd } from '../../host/plugins/mcp/oauth/mcp-oauth.ts';

/** The plugin of the scenario's server (`mcp-NAME` of mcp.json's `conformance`). */
const PLUGIN = 'mcp-conformance';
/** The suite gives a client 30 s; this entry gives up before. */
const DEADLINE_MS = 25_000;

/** The call each scenario expects, by the tool's name on the server (none: initialize and the listing are all). */
const CALLS: Readonly<Record<string, { tool: string; args: Record<string, unknown> }>> = {
  tools_call: { tool: 'add_numbers', args: { a: 5, b: 3 } },
  'elicitation-sep1034-client-defaults': { tool: 'test_client_elicitation_defaults', args: {} },
  'sse-retry': { tool: 'test_reconnection', args: {} },
  'auth/scope-step-up': { tool: 'test-tool', args: {} },
  'auth/scope-retry-limit': { tool: 'test-tool', args: {} },
};

/** The suite's client ID metadata document (the scenarios' authorization servers take its URL as the client ID). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
/** Where the pre-registered client's secret is read from (mcp.json names it as `${VAR}`, never the secret). */
const SECRET_VARIABLE = 'CONFORMANCE_CLIENT_SECRET';

/**
 * The person's browser: opens the authorization address (the scenario's server signs in at once),
 * and follows its redirect back to the host's loopback listener, which finishes the sign-in.
 */
const browser: McpSignInFrontEnd = ({ url }) => {
  void (async () => {
    const authorization = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(DEADLINE_MS) });
    const back = authorization.headers.get('location');
    await authorization.body?.cancel();
    if (back === null) throw new Error(`the authorization server answered ${authorization.status} without a redirect`);
    const done = await fetch(back, { signal: AbortSignal.timeout(DEADLINE_MS) });
    console.log(`sign-in: ${(await done.text()).trim()}`);
  })().catch((error: unknown) => console.error(`the browser could not sign in: ${(error as Error).message}`));
};

/** The pre-registered client the scenario gives (MCP_CONFORMANCE_CONTEXT), if any. */
function preRegisteredClient(): { clientId: string; clientSecret?: string } | undefined {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as {
    client_id?: unknown;
    client_secret?: unknown;
  };
  if (typeof context.client_id !== 'string') return undefined;
  return {
    clientId: context.client_id,
    ...(typeof context.client_secret === 'string' ? { clientSecret: context.client_secret } : {}),
  };
}

/** Resolves once the connection is ready (after a sign-in, if it needs one), or fails with its status. */
function whenReady(connection: McpConnection, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      if (connection.status === 'ready') resolve();
      else if (connection.status === 'failed' || connection.status === 'stopped' || signal.aborted)
        reject(new Error(`${PLUGIN} is ${connection.status}: ${connection.reason ?? ''}`));
      else return false;
      return true;
    };
    if (check()) return;
    const unsubscribe = connection.changes.subscribe(() => {
      if (check()) unsubscribe();
    });
    signal.addEventListener('abort', () => check(), { once: true });
  });
}

/** The person: reads the server's form and presses Accept without changing it (its defaults stand). */
const acceptAsShown: McpElicitationFrontEnd = (request) => {
  console.log(`the server asks: ${request.message}`);
  return Promise.resolve({ action: 'accept', content: {} });
};

async function main(): Promise<number> {
  const url = process.argv[2];
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  if (url === undefined) {
    console.error('usage: client.ts URL (with MCP_CONFORMANCE_SCENARIO set)');
    return 2;
  }
  // Loaded only for a scenario it runs: a scenario it cannot run costs no host.
  const [{ createHost }, { McpClients }, { ScriptedModel }] = await Promise.all([
    import('../../host/app/create-host.ts'),
    import('../../host/plugins/mcp/mcp-clients.ts'),
    import('../../core/models/scripted/scripted-model.ts'),
  ]);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-conformance-client-'));
  let host: Host | undefined;
  try {
    const client = preRegisteredClient();
    const server = {
      url,
      ...(client ? { clientId: client.clientId } : {}),
      ...(client?.clientSecret !== undefined ? { clientSecret: `\${${SECRET_VARIABLE}}` } : {}),
    };
    writeFileSync(path.join(dataDir, 'mcp.json'), JSON.stringify({ mcpServers: { conformance: server } }));
    host = await createHost({
      dataDir,
      transport: 'web',
      model: new ScriptedModel({ replies: [] }),
      approvalPolicy: 'allow',
      mcpEnvironment: client?.clientSecret !== undefined ? { [SECRET_VARIABLE]: client.clientSecret } : {},
      mcpElicitation: acceptAsShown,
      mcpSignIn: browser,
      mcpClientMetadataUrl: CLIENT_METADATA_URL,
      log: (line) => console.error(line),
      version: 'conformance',
    });
    await host.pluginParts.whenSettled();
    const clients = host.pluginParts.of(McpClients);
    const connection = clients?.connection(PLUGIN);
    if (!clients || !connection) throw new Error(`no MCP plugin ${PLUGIN}`);
    const deadline = AbortSignal.timeout(DEADLINE_MS);
    await whenReady(connection, deadline);
    // The person trusts the scenario's server (the Plugins tab's Trust).
    clients.setTrusted(PLUGIN, true);
    console.log(`tools: ${connection.tools.map((tool) => tool.original).join(', ') || '(none)'}`);
    const call = CALLS[scenario];
    if (call === undefined) return 0;
    const declared = connection.tools.find((tool) => tool.original === call.tool);
    if (!declared) throw new Error(`the server does not list ${call.tool}`);
    const context = { conversationId: 'conformance', caller: 'conformance', signal: deadline };
    let result = await host.toolApi.call(context, declared.name, call.args);
    if ('error' in result && result.error?.reason === 'unauthorized') {
      // The server wants more scope for the call (step-up): the person signs in again, then calls again.
      console.log(`step-up: ${result.error.detail ?? ''}`);
      await whenReady(connection, deadline);
      result = await host.toolApi.call(context, declared.name, call.args);
    }
    console.log(JSON.stringify(result));
    return 'error' in result && result.error !== undefined ? 1 : 0;
  } finally {
    await host?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const timer = setTimeout(() => {
  console.error(`gave up after ${DEADLINE_MS} ms`);
  process.exit(1);
}, DEADLINE_MS + 2_000);
timer.unref();
main().then(
  (status) => process.exit(status),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
